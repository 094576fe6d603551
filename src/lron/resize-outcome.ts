// What a clone, shrink or split notification says (index-management's ResizeIndexRespParser).
// Its friendly texts for the usual failures stand alone, without the "The <op> operation from"
// lead the other messages have, as OpenSearch sends them.
import { toOpenSearchError } from '../http/render-error';
import { indexNaming, resultWording, type OperationOutcome, type OperationResult } from './operation-outcome';

export function resizeOutcome(kind: 'clone' | 'shrink' | 'split', source: string, target: string, cluster: string, failed: boolean, error: unknown): OperationOutcome {
  const src = indexNaming([source], cluster);
  const dst = indexNaming([target], cluster);
  const title = (r: OperationResult): string => `${kind.charAt(0).toUpperCase()}${kind.slice(1)} operation on ${src} has ${resultWording(r)}`;
  if (!failed) return { result: 'COMPLETE', title: title('COMPLETE'), message: `The ${kind} operation from ${src} to ${dst} has been completed.` };
  const e = toOpenSearchError(error);
  let message = e.reason;
  if (e.type === 'illegal_state_exception' && e.reason.includes('must block write operations to resize index')) {
    message = `${src} must be set to block write to ${kind} the index. To set it to block write, use \`PUT /${source}/_block/write\` `;
  } else if (e.type === 'resource_already_exists_exception') {
    message = `The target index ${dst} already exists.`;
  } else if (e.type === 'index_not_found_exception') {
    message = `The ${src} does not exist.`;
  }
  return { result: 'FAILED', title: title('FAILED'), message };
}
