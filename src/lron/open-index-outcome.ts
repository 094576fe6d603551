// What an open's notification says (index-management's OpenIndexRespParser): the title names the
// index (or counts them) and says it has been opened or failed to open; the message says it has
// been set to open, or why not: the failure's index and reason.
import { toOpenSearchError } from '../http/render-error';
import { indexNaming, scalarText, type OperationOutcome } from './operation-outcome';

function title(indices: readonly string[], cluster: string, opened: boolean): string {
  const result = opened ? 'been opened' : 'failed to open';
  return indices.length === 1 ? `${indexNaming(indices, cluster)} has ${result}` : `${indices.length} indexes from [${cluster}] have ${result}`;
}

export function openIndexOutcome(indices: readonly string[], cluster: string, response: { body: Buffer } | undefined, error: unknown): OperationOutcome {
  if (response === undefined) {
    const e = toOpenSearchError(error);
    const index = scalarText(e.extra.index);
    // OpenSearch names the failing index (and fails to notify at all when there is none).
    const message = index !== undefined ? `index [${index}] ${e.reason}.` : e.reason;
    return { result: 'FAILED', title: title(indices, cluster, false), message };
  }
  // Quarry opens every shard before it answers, so an answer is never one whose shards are
  // still starting (OpenSearch's TIMEOUT outcome).
  const message = `${indexNaming(indices, cluster)} ${indices.length === 1 ? 'has' : 'have'} been set to open.`;
  return { result: 'COMPLETE', title: title(indices, cluster, true), message };
}
