// What actions see of the running node: its settings, its engine, its task registry, its
// notification channels and its long-running-operation notification settings.
import type { Engine } from './engine';
import type { TaskManager } from './tasks/task-manager';
import type { TaskResults } from './tasks/task-results';
import type { NodeConfig } from './config';
import type { Security } from './security/security';
import type { LronNotifier } from './lron/lron-notifier';
import type { Notifications } from './notifications/notifications';

export interface NodeContext {
  readonly config: NodeConfig;
  readonly engine: Engine;
  readonly tasks: TaskManager;
  /** Results kept by tasks started with `wait_for_completion=false`. */
  readonly taskResults: TaskResults;
  /** Undefined when security is disabled (`plugins.security.disabled: true`). */
  readonly security: Security | undefined;
  readonly notifications: Notifications;
  readonly lron: LronNotifier;
}
