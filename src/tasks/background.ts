// The end of an operation started with `wait_for_completion=false`: what it answered (or the
// error it failed with) is kept as its task's result, then the task is unregistered, so a client
// that sees the task gone finds its result.
import type { NodeContext } from '../node-context';
import type { Task } from './task-manager';
import { errorJson } from './task-results';

export function finishInBackground(node: NodeContext, task: Task, run: Promise<unknown>): void {
  const nodeId = node.engine.nodeId;
  run
    .then(
      (response) => node.taskResults.keep(nodeId, task, { response }),
      (err: unknown) => node.taskResults.keep(nodeId, task, { error: errorJson(err) }),
    )
    .catch((err: unknown) => process.stderr.write(`[quarry] could not keep the result of task [${nodeId}:${task.id}]: ${String(err)}\n`))
    .finally(() => node.tasks.unregister(task));
}

/** An engine answer's JSON, as a kept result holds it. */
export function answerJson(body: Buffer): unknown {
  return JSON.parse(body.toString('utf8')) as unknown;
}
