// Running a bulk-by-scroll request as OpenSearch does: with `wait_for_completion` (the default)
// it answers when done, with the highest failure's status; without, it answers `{"task": id}`
// at once and keeps the response (or the error) as the task's result when it ends.
import type { ActionRequest } from '../http/action';
import type { EngineResponse } from '../engine';
import type { NodeContext } from '../node-context';
import type { Task } from '../tasks/task-manager';
import { formatMillis } from '../config/units';
import { jsonResponse } from '../http/json-response';
import { finishInBackground } from '../tasks/background';
import { runBulkByScroll, type BulkByScrollJob } from './bulk-by-scroll';


/** A kept response is written as OpenSearch keeps it: with the human-readable throttle times. */
function humanized(response: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(response)) {
    if (k === 'throttled_millis') out.throttled = formatMillis(Number(v));
    if (k === 'throttled_until_millis') out.throttled_until = formatMillis(Number(v));
    out[k] = v;
  }
  return out;
}

/** Hands the run to whoever reports its end (the notification settings), returning it unchanged. */
export type Watch = (taskId: string, run: Promise<EngineResponse>) => Promise<EngineResponse>;

const unwatched: Watch = (_taskId, run) => run;

export async function runScrollTask(
  request: ActionRequest,
  node: NodeContext,
  action: string,
  description: string,
  wait: boolean,
  watch: Watch | undefined,
  job: BulkByScrollJob,
): Promise<EngineResponse> {
  const nodeId = node.engine.nodeId;
  const report = watch ?? unwatched;
  const run = (task: Task): Promise<{ out: EngineResponse; response: Record<string, unknown> }> => {
    let response: Record<string, unknown> = {};
    const done = runBulkByScroll(node.engine, task, job).then((o) => {
      response = o.response;
      return jsonResponse(o.response, o.status, true);
    });
    return report(`${nodeId}:${task.id}`, done).then((out) => ({ out, response }));
  };
  if (wait) {
    request.task.description = description;
    return (await run(request.task)).out;
  }
  const task = node.tasks.register(action, undefined, true);
  task.description = description;
  finishInBackground(
    node,
    task,
    run(task).then(({ response }) => humanized(response)),
  );
  return jsonResponse({ task: `${nodeId}:${task.id}` });
}
