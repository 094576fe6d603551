// `wait_for_completion` of the tasks API: the tasks end, or the timeout (30s by default) passes.
import { OpenSearchError } from '../../http/errors';
import type { Task } from '../../tasks/task-manager';

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
