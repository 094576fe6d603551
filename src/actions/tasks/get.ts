import { route, type ActionSpec } from '../../http/action';
import { parseBoolParam } from '../../http/common-params';
import { taskNotFound } from '../../http/error-table';
import { parseTaskId, taskJson, waitTimeoutMillis } from '../../tasks/task-info';
import { json } from './render';
import { waitForTasks } from './wait';

// `GET /_tasks/<node>:<id>`: a running task, detailed, or the result a finished one kept (the
// long-running operations started with `wait_for_completion=false` keep theirs); a task that
// kept none is not found. One waited for (`wait_for_completion`) answers with its kept result,
// or, as OpenSearch does when there is none, completed with what it was.
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
    if (task === undefined) {
      const kept = node.taskResults.get(text);
      if (kept === undefined) throw taskNotFound(text, id.node, true, node.taskResults.exists);
      return json(kept);
    }
    if (!wait) return json({ completed: false, task: taskJson(task, nodeId, true) });
    await waitForTasks([task], timeoutMs, nodeId);
    return json(node.taskResults.get(text) ?? { completed: true, task: taskJson(task, nodeId, true) });
  },
};
