// What a force merge's notification says (index-management's ForceMergeIndexRespParser): the
// title names the index (or how many), the message says it was merged, or why not: the
// failure's index and reason, or each failed shard.
import { parseJson, type JsonNode } from '../http/raw-json';
import { toOpenSearchError } from '../http/render-error';
import { indexNaming, requestIndices, resultWording, scalarText as text, type OperationOutcome, type OperationResult } from './operation-outcome';

/** `RestForceMergeAction`'s target indices: the path's list, trimmed, empties dropped. */
export const forceMergeIndices = requestIndices;

function title(indices: readonly string[], cluster: string, result: OperationResult): string {
  const what = indices.length === 1 ? indexNaming(indices, cluster) : `${indices.length} indexes from [${cluster}]`;
  return `Force merge operation on ${what} has ${resultWording(result)}`;
}


/** A JSON object's member (raw-json trees keep keys in order). */
function member(node: JsonNode | undefined, key: string): JsonNode | undefined {
  if (node?.kind !== 'object') return undefined;
  const i = node.keys.indexOf(key);
  return i === -1 ? undefined : node.values[i];
}

/** `ExceptionsHelper.detailedMessage`: `ClassName[reason]`. */
function detailed(reason: JsonNode | undefined): string {
  const type = text(member(reason, 'type')) ?? 'exception';
  const className = type
    .split('_')
    .map((w) => w.charAt(0).toUpperCase() + w.slice(1))
    .join('');
  return `${className}[${text(member(reason, 'reason')) ?? ''}]`;
}

/** The shards a force merge answer reports as failed, as `index [i] shard [n] <reason>`. */
function shardFailures(body: Buffer): string[] {
  let root: JsonNode;
  try {
    root = parseJson(body.toString('utf8'));
  } catch {
    return [];
  }
  const failures = member(member(root, '_shards'), 'failures');
  if (failures?.kind !== 'array') return [];
  return failures.items.map((f) => `index [${text(member(f, 'index')) ?? ''}] shard [${text(member(f, 'shard')) ?? ''}] ${detailed(member(f, 'reason'))}`);
}

export function forceMergeOutcome(indices: readonly string[], cluster: string, response: { body: Buffer } | undefined, error: unknown): OperationOutcome {
  if (response === undefined) {
    const e = toOpenSearchError(error);
    const index = text(e.extra.index);
    // OpenSearch names the failing index (and fails to notify at all when there is none).
    const message = index !== undefined ? `index [${index}] ${e.reason}.` : e.reason;
    return { result: 'FAILED', title: title(indices, cluster, 'FAILED'), message };
  }
  const failed = shardFailures(response.body);
  if (failed.length > 0) return { result: 'FAILED', title: title(indices, cluster, 'FAILED'), message: failed.join(',') };
  const message =
    indices.length === 1 ? `The force merge operation on ${indexNaming(indices, cluster)} has been completed.` : `${indexNaming(indices, cluster)} have been merged.`;
  return { result: 'COMPLETE', title: title(indices, cluster, 'COMPLETE'), message };
}
