// What the tasks API reads from the registry: a task as OpenSearch's `TaskInfo` prints it, task
// ids (`<node>:<number>`), and the filters `_tasks` and `_tasks/_cancel` take.
import { illegalArgument, malformedTaskId } from '../http/error-table';
import { parseBoolParam } from '../http/common-params';
import { parseTimeValue, timeValueMillis } from '../config/units';
import type { Task, TaskManager } from './task-manager';

export interface TaskId {
  readonly node: string;
  readonly id: number;
}

/** `TaskId(String)`: `<node>:<number>`, anything else malformed. */
export function parseTaskId(text: string): TaskId {
  const colon = text.lastIndexOf(':');
  const id = colon > 0 ? Number(text.slice(colon + 1)) : NaN;
  if (!Number.isSafeInteger(id) || id < 0 || !/^\d+$/.test(text.slice(colon + 1))) throw malformedTaskId(text);
  return { node: text.slice(0, colon), id };
}

/** A task's entry: OpenSearch's field order; `description` only when detailed. */
export function taskJson(t: Task, nodeId: string, detailed: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { node: nodeId, id: t.id, type: t.type, action: t.action };
  const status = t.status?.();
  if (status !== undefined) out.status = status;
  if (detailed) out.description = t.description ?? '';
  out.start_time_in_millis = t.startTimeMillis;
  out.running_time_in_nanos = t.runningTimeNanos();
  out.cancellable = t.cancellable;
  out.cancelled = t.cancelled;
  if (t.parentId !== undefined) out.parent_task_id = `${nodeId}:${t.parentId}`;
  out.headers = t.opaqueId === undefined ? {} : { 'X-Opaque-Id': t.opaqueId };
  return out;
}

export interface TaskFilter {
  /** Action name patterns (`*` any run of characters); none means every action. */
  readonly actions: readonly RegExp[];
  readonly parent: TaskId | undefined;
}

function wildcard(pattern: string): RegExp {
  const body = pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&'));
  return new RegExp(`^${body.join('.*')}$`);
}

/**
 * `actions` and `parent_task_id` as the list and cancel requests read them. As the spec says, an
 * empty `parent_task_id` or `-1` means every task (OpenSearch 2.19 refuses `-1` as malformed).
 */
export function taskFilter(params: Readonly<Record<string, string>>): TaskFilter {
  const actions = (params.actions ?? '')
    .split(',')
    .map((a) => a.trim())
    .filter((a) => a !== '')
    .map(wildcard);
  const p = params.parent_task_id;
  const parent = p === undefined || p === '' || p === '-1' ? undefined : parseTaskId(p);
  return { actions, parent };
}

export function matches(t: Task, f: TaskFilter, nodeId: string): boolean {
  if (f.actions.length > 0 && !f.actions.some((re) => re.test(t.action))) return false;
  if (f.parent !== undefined && (f.parent.node !== nodeId || t.parentId !== f.parent.id)) return false;
  return true;
}

/** The running tasks a filter selects, oldest first. */
export function selectTasks(tasks: TaskManager, f: TaskFilter, nodeId: string): Task[] {
  return tasks.list().filter((t) => matches(t, f, nodeId));
}

export type GroupBy = 'nodes' | 'parents' | 'none';

export function parseGroupBy(v: string | undefined): GroupBy {
  if (v === undefined || v === 'nodes' || v === 'parents' || v === 'none') return v ?? 'nodes';
  throw illegalArgument(`[group_by] must be one of [nodes], [parents] or [none] but was [${v}]`);
}

/** The URL parameters of listing and cancelling (the spec gives cancel the list's). */
export const TASKS_PARAMS = ['actions', 'cluster_manager_timeout', 'detailed', 'group_by', 'nodes', 'parent_task_id', 'timeout', 'wait_for_completion'] as const;

export interface TasksRequest {
  readonly detailed: boolean;
  readonly wait: boolean;
  readonly groupBy: GroupBy;
  /** How long `wait_for_completion` waits: `timeout`, 30s by default. */
  readonly timeoutMs: number;
  readonly filter: TaskFilter;
}

export function waitTimeoutMillis(timeout: string | undefined): number {
  if (timeout === undefined) return 30_000;
  const ms = timeValueMillis(parseTimeValue(timeout, 'timeout'));
  return ms < 0 ? 30_000 : ms;
}

/** The parameters as the list and cancel requests read them, refused with OpenSearch's messages. */
export function tasksRequest(params: Readonly<Record<string, string>>): TasksRequest {
  return {
    detailed: parseBoolParam('detailed', params.detailed),
    wait: parseBoolParam('wait_for_completion', params.wait_for_completion),
    groupBy: parseGroupBy(params.group_by),
    timeoutMs: waitTimeoutMillis(params.timeout),
    filter: taskFilter(params),
  };
}
