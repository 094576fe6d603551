import { route, type ActionSpec, type ActionRequest } from '../../http/action';
import type { EngineResponse } from '../../engine';
import type { NodeContext } from '../../node-context';
import { parseBoolParam } from '../../http/common-params';
import { runResize, type ResizeKind } from '../../reindex/resize';
import { errorJson } from '../../tasks/task-results';

const ACTION = 'indices:admin/resize';
const PARAMS = ['wait_for_active_shards', 'timeout', 'master_timeout', 'cluster_manager_timeout', 'wait_for_completion', 'task_execution_timeout', 'copy_settings'];

function answer(value: unknown): EngineResponse {
  return { status: 200, body: Buffer.from(JSON.stringify(value)) };
}

// `POST|PUT /<index>/_clone|_shrink|_split/<target>`: a new index with the source's mappings and
// settings and a copy of its documents (see reindex/resize.ts). With
// `wait_for_completion=false` it answers with a task id and keeps the answer as the task's result.
function resize(kind: ResizeKind): (request: ActionRequest, node: NodeContext) => Promise<EngineResponse> {
  return async (request, node) => {
    const p = request.params;
    const wait = parseBoolParam('wait_for_completion', p.wait_for_completion, true);
    const source = p.index ?? '';
    const target = p.target ?? '';
    if (wait) return answer(await runResize(node, kind, source, target, request.body));
    const task = node.tasks.register(ACTION, undefined, false);
    task.description = `${kind} from [${source}] to [${target}]`;
    const nodeId = node.engine.nodeId;
    runResize(node, kind, source, target, request.body)
      .then(
        (response) => node.taskResults.keep(nodeId, task, { response }),
        (err: unknown) => node.taskResults.keep(nodeId, task, { error: errorJson(err) }),
      )
      .catch((err: unknown) => process.stderr.write(`[quarry] could not keep the result of task [${nodeId}:${task.id}]: ${String(err)}\n`))
      .finally(() => node.tasks.unregister(task));
    return answer({ task: `${nodeId}:${task.id}` });
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
