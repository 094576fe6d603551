// Firing notification settings when a long-running operation ends (index-management's
// NotificationActionListener). `plugins.lron.notification_delay` after the end (OpenSearch: 5 s,
// so a setting made for a task id just received still counts), the one-time setting of the
// task and the global setting of its action are looked up; those whose condition matches the
// outcome send its title and message to each of their channels, each channel once; then the
// one-time setting is deleted, matched or not. Delivery failures are logged, one line each, and
// never reach the operation.
import type { NodeConfig } from '../config';
import type { EngineResponse } from '../engine';
import type { Notifications } from '../notifications/notifications';
import { eventSource } from '../notifications/notification-event';
import { DOC_ID_PREFIX, type LronCondition } from './lron-config';
import { LronStore, type StoredLron } from './lron-store';
import type { OperationOutcome } from './operation-outcome';

export type Logger = (line: string) => void;

function matches(c: LronCondition, outcome: OperationOutcome): boolean {
  return outcome.result === 'COMPLETE' ? c.success : c.failure;
}

export class LronNotifier {
  private readonly timers = new Set<NodeJS.Timeout>();

  constructor(
    readonly store: LronStore,
    private readonly notifications: Notifications,
    private readonly delayMs: number,
    private readonly log: Logger,
  ) {}

  /** The node's notifier: its settings under `path.data`, failures logged on stderr. */
  static open(config: NodeConfig, notifications: Notifications): LronNotifier {
    return new LronNotifier(LronStore.open(config.path.data), notifications, config.lron.notificationDelayMs, (line) => process.stderr.write(`${line}\n`));
  }

  /**
   * Watches an operation: once `operation` settles, its outcome (as `describe` words it) is
   * notified. Returns `operation` itself, so the caller's result and errors are unchanged.
   */
  watch(taskId: string, action: string, operation: Promise<EngineResponse>, describe: (response: EngineResponse | undefined, error: unknown) => OperationOutcome): Promise<EngineResponse> {
    operation.then(
      (response) => this.ended(taskId, action, () => describe(response, undefined)),
      (error: unknown) => this.ended(taskId, action, () => describe(undefined, error)),
    );
    return operation;
  }

  /** An operation of `action`, task `taskId` (`<node>:<id>`), has ended as `outcome` words it. */
  private ended(taskId: string, action: string, outcome: () => OperationOutcome): void {
    const timer = setTimeout(() => {
      this.timers.delete(timer);
      // Wording the outcome may throw too: it is part of the run, never of the timer.
      Promise.resolve()
        .then(() => this.notify(taskId, action, outcome()))
        .catch((err: unknown) => {
          this.log(`[quarry] lron: notifying the end of task [${taskId}] (${action}) failed: ${err instanceof Error ? err.message : String(err)}`);
        });
    }, this.delayMs);
    // A pending notification does not keep the process alive.
    timer.unref();
    this.timers.add(timer);
  }

  private async notify(taskId: string, action: string, outcome: OperationOutcome): Promise<void> {
    const oneTime = this.store.get(DOC_ID_PREFIX + taskId);
    const global = this.store.get(DOC_ID_PREFIX + action);
    const policies = [oneTime, global].filter((p): p is StoredLron => p !== undefined && matches(p.lron_config.lron_condition, outcome));
    const channels = [...new Set(policies.flatMap((p) => (p.lron_config.channels ?? []).map((c) => c.id)))];
    if (channels.length > 0) {
      const event = await this.notifications.send(channels, eventSource(outcome.title, taskId), { title: outcome.title, text: outcome.message });
      for (const s of event.status_list) {
        if (s.delivery_status.status_code === '200') continue;
        this.log(
          `[quarry] lron: notifying channel [${s.config_id}] of task [${taskId}] (${action}) failed: ${s.delivery_status.status_code} ${s.delivery_status.status_text.replace(/\s+/g, ' ')}`,
        );
      }
    }
    if (oneTime !== undefined) await this.store.delete(DOC_ID_PREFIX + taskId);
  }

  /** Drops the notifications still waiting for their delay (the node is shutting down). */
  close(): void {
    for (const t of this.timers) clearTimeout(t);
    this.timers.clear();
  }
}
