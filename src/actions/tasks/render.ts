// The answers of the tasks API: tasks grouped by node (OpenSearch's default), by parent, or not
// at all, and the failures it reports beside them.
import type { NodeContext } from '../../node-context';
import type { Task } from '../../tasks/task-manager';
import { taskJson, type GroupBy } from '../../tasks/task-info';
import { nodeHeader } from '../nodes/facts';
import { jsonResponse } from '../../http/json-response';
import type { EngineResponse } from '../../engine';

export function tasksBody(node: NodeContext, tasks: readonly Task[], groupBy: GroupBy, detailed: boolean, extra: Record<string, unknown> = {}): Record<string, unknown> {
  const nodeId = node.engine.nodeId;
  const json = (t: Task): Record<string, unknown> => taskJson(t, nodeId, detailed);
  if (groupBy === 'none') return { ...extra, tasks: tasks.map(json) };
  if (groupBy === 'parents') {
    const ids = new Set(tasks.map((t) => t.id));
    const nest = (t: Task): Record<string, unknown> => {
      const children = tasks.filter((c) => c.parentId === t.id).map(nest);
      return children.length > 0 ? { ...json(t), children } : json(t);
    };
    const top: Record<string, unknown> = {};
    for (const t of tasks) if (t.parentId === undefined || !ids.has(t.parentId)) top[`${nodeId}:${t.id}`] = nest(t);
    return { ...extra, tasks: top };
  }
  const entries: Record<string, unknown> = {};
  for (const t of tasks) entries[`${nodeId}:${t.id}`] = json(t);
  return { ...extra, nodes: tasks.length === 0 ? {} : { [nodeId]: { ...nodeHeader(node), tasks: entries } } };
}

/** A node-level failure as `_tasks/_cancel` reports one: `Failed node [<id>]`, its cause inside. */
export function nodeFailure(nodeId: string, cause: Record<string, unknown>): Record<string, unknown> {
  return { type: 'failed_node_exception', reason: `Failed node [${nodeId}]`, node_id: nodeId, caused_by: cause };
}

/** A tasks answer: a long-running task's `status` carries a Java float. */
export function json(body: unknown): EngineResponse {
  return jsonResponse(body, 200, true);
}
