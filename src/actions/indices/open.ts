import type { EngineResponse } from '../../engine';
import { route, type ActionSpec } from '../../http/action';
import { parseBoolParam } from '../../http/common-params';
import { openIndexOutcome } from '../../lron/open-index-outcome';
import { requestIndices } from '../../lron/operation-outcome';
import type { Task } from '../../tasks/task-manager';
import { answerJson, finishInBackground } from '../../tasks/background';

const ACTION = 'indices:admin/open';

// `POST /<target>/_open`. With `wait_for_completion=false` OpenSearch answers `{"task": …}` at
// once and opens in the background; Quarry keeps the task registered until the engine is done.
// Either way, its end fires the notification settings of its task and of opens (src/lron), as
// index management does for OpenSearch.
export const indicesOpen: ActionSpec = {
  action: ACTION,
  routes: [route('POST', '/_open'), route('POST', '/:index/_open')],
  params: [
    'timeout',
    'master_timeout',
    'cluster_manager_timeout',
    'wait_for_active_shards',
    'wait_for_completion',
    'ignore_unavailable',
    'allow_no_indices',
    'expand_wildcards',
    'ignore_throttled',
  ],
  run: (request, node) => {
    const p = request.params;
    const wait = parseBoolParam('wait_for_completion', p.wait_for_completion, true);
    const indices = requestIndices(p.index);
    const open = (task: Task): Promise<EngineResponse> =>
      node.lron.watch(`${node.engine.nodeId}:${task.id}`, ACTION, node.engine.execute(ACTION, p, request.body), (response, error) =>
        openIndexOutcome(indices, node.config.cluster.name, response, error),
      );
    if (wait) return open(request.task);
    const task = node.tasks.register(ACTION, undefined);
    finishInBackground(node, task, open(task).then((r) => answerJson(r.body)));
    return { status: 200, body: Buffer.from(JSON.stringify({ task: `${node.engine.nodeId}:${task.id}` })) };
  },
};
