import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';
import type { Task } from '../../tasks/task-manager';
import { parseTaskId, selectTasks, tasksRequest, TASKS_PARAMS } from '../../tasks/task-info';
import { selectsThisNode } from '../nodes/facts';
import { json, nodeFailure, tasksBody } from './render';
import { waitForTasks } from './wait';

const REASON = 'by user request';

function cancel(node: NodeContext, task: Task): void {
  task.cancel(REASON);
  if (task.inEngine) node.engine.cancel(task.id);
}

// `POST /_tasks/_cancel` (the cancellable tasks the filters select) and
// `POST /_tasks/<node>:<id>/_cancel`: each is marked cancelled and its request stops (a search
// before its next shard). The answer lists the tasks cancelled.
export const tasksCancel: ActionSpec = {
  action: 'cluster:admin/tasks/cancel',
  routes: [route('POST', '/_tasks/_cancel'), route('POST', '/_tasks/:task_id/_cancel')],
  params: TASKS_PARAMS,
  run: async (request, node) => {
    const p = request.params;
    const { detailed, wait, groupBy, timeoutMs, filter } = tasksRequest(p);
    const nodeId = node.engine.nodeId;
    let chosen: Task[];
    if (p.task_id !== undefined) {
      const id = parseTaskId(p.task_id);
      if (id.node !== nodeId) {
        return json({
          node_failures: [nodeFailure(id.node, { type: 'no_such_node_exception', reason: `No such node [${id.node}]`, node_id: id.node })],
          ...tasksBody(node, [], groupBy, detailed),
        });
      }
      const task = node.tasks.get(id.id);
      const refusal =
        task === undefined
          ? `task [${p.task_id}] is not found`
          : !task.cancellable
            ? `task [${p.task_id}] doesn't support cancellation`
            : undefined;
      if (refusal !== undefined) {
        const type = task === undefined ? 'resource_not_found_exception' : 'illegal_argument_exception';
        return json({ node_failures: [nodeFailure(nodeId, { type, reason: refusal })], ...tasksBody(node, [], groupBy, detailed) });
      }
      chosen = [task as Task];
    } else {
      chosen = selectsThisNode(node, p.nodes) ? selectTasks(node.tasks, filter, nodeId).filter((t) => t.cancellable) : [];
    }
    for (const t of chosen) cancel(node, t);
    if (wait) await waitForTasks(chosen, timeoutMs, nodeId);
    return json(tasksBody(node, chosen, groupBy, detailed));
  },
};
