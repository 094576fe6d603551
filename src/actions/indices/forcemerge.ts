import type { EngineResponse } from '../../engine';
import { route, type ActionSpec } from '../../http/action';
import { parseBoolParam, parseIntParam } from '../../http/common-params';
import { forceMergeIndices, forceMergeOutcome } from '../../lron/force-merge-outcome';
import type { Task } from '../../tasks/task-manager';
import { answerJson, finishInBackground } from '../../tasks/background';

const ACTION = 'indices:admin/forcemerge';

// `POST [/<target>]/_forcemerge`. With `wait_for_completion=false` OpenSearch checks the
// parameters, answers `{"task": "<node>:<id>"}` at once and merges in the background (where a
// missing index only fails the task). Quarry does the same: the task stays registered, and
// visible to the tasks API, until the engine is done. Either way, its end fires the notification
// settings of its task and of force merges (src/lron).
export const indicesForceMerge: ActionSpec = {
  action: ACTION,
  routes: [route('POST', '/_forcemerge'), route('POST', '/:index/_forcemerge')],
  params: ['max_num_segments', 'only_expunge_deletes', 'flush', 'wait_for_completion', 'primary_only', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
  run: async (request, node) => {
    const p = request.params;
    const wait = parseBoolParam('wait_for_completion', p.wait_for_completion, true);
    // Read here, as OpenSearch's REST layer reads them, so a bad one fails before the merge
    // starts (and so notifies nobody).
    parseIntParam('max_num_segments', p.max_num_segments, -1);
    for (const name of ['only_expunge_deletes', 'flush', 'primary_only', 'ignore_unavailable', 'allow_no_indices']) {
      parseBoolParam(name, p[name]);
    }
    const indices = forceMergeIndices(p.index);
    const merge = (task: Task): Promise<EngineResponse> =>
      node.lron.watch(`${node.engine.nodeId}:${task.id}`, ACTION, node.engine.execute(ACTION, p, request.body), (response, error) =>
        forceMergeOutcome(indices, node.config.cluster.name, response, error),
      );
    if (wait) return merge(request.task);
    const task = node.tasks.register(ACTION, undefined);
    finishInBackground(node, task, merge(task).then((r) => answerJson(r.body)));
    return { status: 200, body: Buffer.from(JSON.stringify({ task: `${node.engine.nodeId}:${task.id}` })) };
  },
};
