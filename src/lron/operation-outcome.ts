// How a long-running operation ended, and the notification text that says so (index-management's
// ActionRespParseResult): the outcome a setting's condition is matched against, a title and a
// message.
import { isJsonNode } from '../http/raw-json';

export type OperationResult = 'COMPLETE' | 'FAILED' | 'TIMEOUT' | 'CANCELLED';

export interface OperationOutcome {
  readonly result: OperationResult;
  readonly title: string;
  readonly message: string;
}

/** `getOperationResultTitleDesc`: the end of a title, `… has <this>`. */
export function resultWording(result: OperationResult): string {
  switch (result) {
    case 'COMPLETE':
      return 'completed';
    case 'FAILED':
      return 'failed';
    case 'TIMEOUT':
      return 'timed out';
    case 'CANCELLED':
      return 'been cancelled';
  }
}

/**
 * `getIndexName`: one index as `[<cluster>/<index>]`, several (or none) as
 * `[a,b] from [<cluster>]`.
 */
export function indexNaming(indices: readonly string[], cluster: string): string {
  return indices.length === 1 ? `[${cluster}/${indices[0]}]` : `[${indices.join(',')}] from [${cluster}]`;
}

/** A request's target indices as `Strings.splitStringByCommaToArray` reads the path: trimmed,
 * empties dropped (what the parsers' `request.indices()` hold). */
export function requestIndices(indexParam: string | undefined): string[] {
  return (indexParam ?? '')
    .split(',')
    .map((s) => s.trim())
    .filter((s) => s !== '');
}

/** A scalar of an error's extra fields or a parsed answer (a string, or a raw-json scalar). */
export function scalarText(v: unknown): string | undefined {
  if (typeof v === 'string') return v;
  if (isJsonNode(v) && v.kind === 'scalar') {
    const parsed = JSON.parse(v.raw) as unknown;
    return typeof parsed === 'string' || typeof parsed === 'number' ? String(parsed) : undefined;
  }
  return undefined;
}
