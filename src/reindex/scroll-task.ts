// Running a bulk-by-scroll request as OpenSearch does: with `wait_for_completion` (the default)
// it answers when done, with the highest failure's status; without, it answers `{"task": id}`
// at once and keeps the response (or the error) as the task's result when it ends.
import type { ActionRequest } from '../http/action';
import type { EngineResponse } from '../engine';
import type { NodeContext } from '../node-context';
import { formatMillis } from '../config/units';
import { withJavaFloats } from '../http/java-float';
import { errorJson } from '../tasks/task-results';
import { runBulkByScroll, type BulkByScrollJob } from './bulk-by-scroll';

function json(status: number, value: unknown): EngineResponse {
  return { status, body: Buffer.from(withJavaFloats(JSON.stringify(value))) };
}

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

export async function runScrollTask(request: ActionRequest, node: NodeContext, action: string, description: string, wait: boolean, job: BulkByScrollJob): Promise<EngineResponse> {
  if (wait) {
    request.task.description = description;
    const out = await runBulkByScroll(node.engine, request.task, job);
    return json(out.status, out.response);
  }
  const task = node.tasks.register(action, undefined, true);
  task.description = description;
  const nodeId = node.engine.nodeId;
  runBulkByScroll(node.engine, task, job)
    .then(
      (out) => node.taskResults.keep(nodeId, task, { response: humanized(out.response) }),
      (err: unknown) => node.taskResults.keep(nodeId, task, { error: errorJson(err) }),
    )
    .catch((err: unknown) => process.stderr.write(`[quarry] could not keep the result of task [${nodeId}:${task.id}]: ${String(err)}\n`))
    .finally(() => node.tasks.unregister(task));
  return json(200, { task: `${nodeId}:${task.id}` });
}
