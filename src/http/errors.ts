// An error that renders as OpenSearch's envelope: exception type, reason, status, the extra
// fields OpenSearch prints beside them, and an optional cause.

export interface ErrorCause {
  readonly type: string;
  readonly reason: string;
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly causedBy?: ErrorCause;
}

export class OpenSearchError extends Error implements ErrorCause {
  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly causedBy?: ErrorCause,
    /** OpenSearch answers some failures (no handler, wrong method, bad content type) with a
     * bare `{"error":"reason","status":N}` instead of the full envelope. */
    readonly plain = false,
  ) {
    super(reason);
    this.name = 'OpenSearchError';
  }
}
