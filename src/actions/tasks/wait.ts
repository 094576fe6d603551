// `wait_for_completion` of the tasks API: the tasks end, or the timeout (30s by default) passes.
import { OpenSearchError } from '../../http/errors';
import { parseTimeValue, timeValueMillis } from '../../config/units';
import type { Task } from '../../tasks/task-manager';

export function waitTimeoutMillis(timeout: string | undefined): number {
  if (timeout === undefined) return 30_000;
  const ms = timeValueMillis(parseTimeValue(timeout, 'timeout'));
  return ms < 0 ? 30_000 : ms;
}

export async function waitForTasks(tasks: readonly Task[], timeoutMs: number, nodeId: string): Promise<void> {
  let timer: NodeJS.Timeout | undefined;
  const expired = new Promise<Task | undefined>((resolve) => {
    timer = setTimeout(() => resolve(tasks.find((t) => !t.isEnded)), timeoutMs);
  });
  try {
    const late = await Promise.race([Promise.all(tasks.map((t) => t.done())).then(() => undefined), expired]);
    if (late !== undefined) {
      throw new OpenSearchError(500, 'timeout_exception', `Timed out waiting for completion of task [${nodeId}:${late.id}]`);
    }
  } finally {
    clearTimeout(timer);
  }
}
