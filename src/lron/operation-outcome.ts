// How a long-running operation ended, and the notification text that says so (index-management's
// ActionRespParseResult): the outcome a setting's condition is matched against, a title and a
// message.

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
