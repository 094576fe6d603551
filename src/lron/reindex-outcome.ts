// What a reindex's notification says (index-management's ReindexRespParser): the source and
// destination, and either the document counts, the first two distinct failure messages, the
// cancellation, or the error it failed with.
import type { EngineResponse } from '../engine';
import { toOpenSearchError } from '../http/render-error';
import { indexNaming, resultWording, type OperationOutcome, type OperationResult } from './operation-outcome';

interface Counts {
  total: number;
  created: number;
  updated: number;
  deleted: number;
  version_conflicts: number;
  canceled?: string;
  failures: Array<{ cause?: { reason?: string } }>;
}

export function reindexOutcome(sources: readonly string[], dest: string, cluster: string, taskId: string, response: EngineResponse | undefined, error: unknown): OperationOutcome {
  const from = `The reindex operation from ${indexNaming(sources, cluster)} to ${indexNaming([dest], cluster)} `;
  const title = (r: OperationResult): string => `Reindex operation on ${indexNaming(sources, cluster)} has ${resultWording(r)}`;
  if (response === undefined) return { result: 'FAILED', title: title('FAILED'), message: `${from}has failed. ${toOpenSearchError(error).reason}` };
  const c = JSON.parse(response.body.toString('utf8')) as Counts;
  const summary = `\n\n*Summary (number of documents)* \nTotal: ${c.total}, Created: ${c.created}, Updated: ${c.updated}, Deleted: ${c.deleted}, Conflicts: ${c.version_conflicts}`;
  if (c.failures.length > 0) {
    const messages = [...new Set(c.failures.map((f) => f.cause?.reason ?? ''))].slice(0, 2).join(',');
    const message = `${from}has failed. \n\n ${c.failures.length} error(s) found, including: \n${messages}\nTo see full errors, use \`GET /_tasks/${taskId}\`${summary}`;
    return { result: 'FAILED', title: title('FAILED'), message };
  }
  if (c.canceled !== undefined) return { result: 'FAILED', title: title('CANCELLED'), message: `${from}has been cancelled by user's request${summary}` };
  return { result: 'COMPLETE', title: title('COMPLETE'), message: `${from}has been completed.${summary}` };
}
