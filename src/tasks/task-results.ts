// Results of the tasks that asked to keep them (long-running operations started with
// `wait_for_completion=false`), as OpenSearch keeps them in its `.tasks` index: `GET
// /_tasks/<id>` answers a finished task from here with `completed: true` and its `response` or
// `error`. Kept in the system index `.tasks` (one record per task, written before the task is
// unregistered, so a client that sees the task gone finds its result), and never deleted, as
// OpenSearch never deletes them either.
import { renderError } from '../http/render-error';
import { SystemIndex } from '../system/system-index';
import type { Task } from './task-manager';
import { taskJson } from './task-info';

export interface StoredTaskResult {
  readonly completed: true;
  readonly task: Record<string, unknown>;
  readonly response?: unknown;
  readonly error?: unknown;
}

/** An error as a stored result holds it: the envelope's `error` without its `root_cause`. */
export function errorJson(err: unknown): Record<string, unknown> {
  const rendered = JSON.parse(renderError(err, { errorTrace: false }).body.toString('utf8')) as { error?: unknown };
  const e = rendered.error;
  if (e === null || typeof e !== 'object') return { type: 'exception', reason: String(e) };
  const { root_cause: _rootCause, ...rest } = e as Record<string, unknown>;
  return rest;
}

/** The index OpenSearch keeps them in, whose name they answer to here. */
export const TASK_RESULTS_INDEX = '.tasks';

export class TaskResults {
  private readonly store: SystemIndex<StoredTaskResult>;

  constructor(dataPath: string) {
    this.store = SystemIndex.open<StoredTaskResult>(dataPath, TASK_RESULTS_INDEX);
  }

  /** Whether any result was ever kept (OpenSearch's `.tasks` index exists). */
  get exists(): boolean {
    return this.store.size > 0;
  }

  /** The highest task number kept, so a restarted node does not reuse one. */
  get highestId(): number {
    let max = 0;
    for (const [id] of this.store.entries()) max = Math.max(max, Number(id.slice(id.lastIndexOf(':') + 1)) || 0);
    return max;
  }

  /** Drops every kept result (deleting OpenSearch's `.tasks` index). */
  clear(): Promise<void> {
    return this.store.clear();
  }

  get(taskId: string): StoredTaskResult | undefined {
    return this.store.get(taskId);
  }

  /** Keeps what `task` ended with; call before unregistering it. */
  keep(nodeId: string, task: Task, outcome: { response: unknown } | { error: unknown }): Promise<void> {
    const result: StoredTaskResult = { completed: true, task: taskJson(task, nodeId, true), ...outcome };
    return this.store.put(`${nodeId}:${task.id}`, result);
  }
}
