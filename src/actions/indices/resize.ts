import { route, type ActionSpec, type ActionRequest } from '../../http/action';
import type { EngineResponse } from '../../engine';
import type { NodeContext } from '../../node-context';
import { parseBoolParam } from '../../http/common-params';
import { jsonResponse } from '../../http/json-response';
import { runResize, type ResizeKind } from '../../reindex/resize';
import { answerJson, finishInBackground } from '../../tasks/background';
import { resizeOutcome } from '../../lron/resize-outcome';

const ACTION = 'indices:admin/resize';
const PARAMS = ['wait_for_active_shards', 'timeout', 'master_timeout', 'cluster_manager_timeout', 'wait_for_completion', 'task_execution_timeout', 'copy_settings'];


// `POST|PUT /<index>/_clone|_shrink|_split/<target>`: a new index with the source's mappings and
// settings and a copy of its documents (see reindex/resize.ts). With
// `wait_for_completion=false` it answers with a task id and keeps the answer as the task's result.
function resize(kind: ResizeKind): (request: ActionRequest, node: NodeContext) => Promise<EngineResponse> {
  return async (request, node) => {
    const p = request.params;
    const wait = parseBoolParam('wait_for_completion', p.wait_for_completion, true);
    const source = p.index ?? '';
    const target = p.target ?? '';
    const nodeId = node.engine.nodeId;
    // Its end fires the notification settings of its task and of resizes (src/lron).
    const run = (taskId: number): Promise<EngineResponse> =>
      node.lron.watch(`${nodeId}:${taskId}`, ACTION, runResize(node, kind, source, target, request.body).then((r) => jsonResponse(r)), (response, error) =>
        resizeOutcome(kind, source, target, node.config.cluster.name, response === undefined, error),
      );
    const description = `${kind} from [${source}] to [${target}]`;
    if (wait) {
      request.task.description = description;
      return run(request.task.id);
    }
    const task = node.tasks.register(ACTION, undefined, false);
    task.description = description;
    finishInBackground(node, task, run(task.id).then((r) => answerJson(r.body)));
    return jsonResponse({ task: `${nodeId}:${task.id}` });
  };
}

function spec(kind: ResizeKind): ActionSpec {
  return {
    action: ACTION,
    routes: [route('POST', `/:index/_${kind}/:target`), route('PUT', `/:index/_${kind}/:target`)],
    params: PARAMS,
    run: resize(kind),
  };
}

export const indicesClone = spec('clone');
export const indicesShrink = spec('shrink');
export const indicesSplit = spec('split');
