import { route, type ActionSpec } from '../../http/action';
import { selectTasks, tasksRequest, TASKS_PARAMS } from '../../tasks/task-info';
import { selectsThisNode } from '../nodes/facts';
import { json, tasksBody } from './render';
import { waitForTasks } from './wait';

const ACTION = 'cluster:monitor/tasks/lists';

// `GET /_tasks`: the running tasks, as OpenSearch lists them: the list request itself among
// them, with the per-node child task it runs (`[n]`, type `direct`).
export const tasksList: ActionSpec = {
  action: ACTION,
  routes: [route('GET', '/_tasks')],
  params: TASKS_PARAMS,
  run: async (request, node) => {
    const p = request.params;
    const { detailed, wait, groupBy, timeoutMs, filter } = tasksRequest(p);
    const nodeId = node.engine.nodeId;
    if (!selectsThisNode(node, p.nodes)) return json(tasksBody(node, [], groupBy, detailed));
    if (wait) {
      // Every other matching task is waited for; the answer lists what runs once they are done.
      const others = selectTasks(node.tasks, filter, nodeId).filter((t) => t !== request.task);
      await waitForTasks(others, timeoutMs, nodeId);
      return json(tasksBody(node, selectTasks(node.tasks, filter, nodeId), groupBy, detailed));
    }
    const child = node.tasks.register(`${ACTION}[n]`, undefined, false, request.task);
    try {
      return json(tasksBody(node, selectTasks(node.tasks, filter, nodeId), groupBy, detailed));
    } finally {
      node.tasks.unregister(child);
    }
  },
};
