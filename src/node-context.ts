// What actions see of the running node: its settings, its engine, its task registry, its
// notification channels and its long-running-operation notification settings.
import type { Engine } from './engine';
import type { TaskManager } from './tasks/task-manager';
import type { NodeConfig } from './config';
import type { LronNotifier } from './lron/lron-notifier';
import type { Notifications } from './notifications/notifications';

export interface NodeContext {
  readonly config: NodeConfig;
  readonly engine: Engine;
  readonly tasks: TaskManager;
  readonly notifications: Notifications;
  readonly lron: LronNotifier;
}
