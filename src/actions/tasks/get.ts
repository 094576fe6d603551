import { route, type ActionSpec } from '../../http/action';
import { parseBoolParam } from '../../http/common-params';
import { taskNotFound } from '../../http/error-table';
import { parseTaskId, taskJson, waitTimeoutMillis } from '../../tasks/task-info';
import { json } from './render';
import { waitForTasks } from './wait';

// `GET /_tasks/<node>:<id>`: a running task, detailed. Quarry stores no task results (there is no
// `.tasks` index), so a task that is not running is not found, as on an OpenSearch without one;
// one waited for (`wait_for_completion`) answers as OpenSearch does then: completed, with what it
// was.
export const tasksGet: ActionSpec = {
  action: 'cluster:monitor/task/get',
  routes: [route('GET', '/_tasks/:task_id')],
  params: ['timeout', 'wait_for_completion'],
  run: async (request, node) => {
    const p = request.params;
    const text = p.task_id ?? '';
    const wait = parseBoolParam('wait_for_completion', p.wait_for_completion);
    const timeoutMs = waitTimeoutMillis(p.timeout);
    const id = parseTaskId(text);
    const nodeId = node.engine.nodeId;
    if (id.node !== nodeId) throw taskNotFound(text, id.node, false);
    const task = node.tasks.get(id.id);
    if (task === undefined) throw taskNotFound(text, id.node, true);
    if (!wait) return json({ completed: false, task: taskJson(task, nodeId, true) });
    await waitForTasks([task], timeoutMs, nodeId);
    return json({ completed: true, task: taskJson(task, nodeId, true) });
  },
};
