// An error that renders as OpenSearch's envelope: exception type, reason, status, the extra
// fields OpenSearch prints beside them, and an optional cause chain.

/** One link of a cause chain, as rendered in `caused_by` and `root_cause`. */
export interface ErrorCause {
  /** OpenSearch's exception name, snake_cased: `illegal_argument_exception`. */
  readonly type: string;
  readonly reason: string;
  /** Metadata written after `reason`, in this order (`index`, `index_uuid`, `resource.type`, …). */
  readonly extra?: Readonly<Record<string, unknown>>;
  readonly causedBy?: ErrorCause | undefined;
  /** `header` object OpenSearch prints for exceptions that carry headers (e.g. WWW-Authenticate). */
  readonly header?: Readonly<Record<string, string | readonly string[]>> | undefined;
  /** A stack trace to print with `error_trace=true` (engine errors may bring their own). */
  readonly stackTrace?: string | undefined;
}

export interface OpenSearchErrorOptions {
  /**
   * OpenSearch answers a few failures (no handler, wrong method, bad content type) with a bare
   * `{"error":"reason","status":N}` instead of the envelope; `no handler found` omits `status`.
   */
  readonly plain?: boolean;
  /** With `plain`: whether `"status"` is written (true unless said otherwise). */
  readonly plainStatus?: boolean;
  /**
   * The security layer answers a failed authentication with its reason as `text/plain`
   * (`Unauthorized`), not JSON.
   */
  readonly text?: boolean;
  /** HTTP response headers that go with the error (`Allow` on a 405). */
  readonly httpHeaders?: Readonly<Record<string, string>>;
  /** Explicit root causes (e.g. the per-shard causes of a search failure). */
  readonly rootCauses?: readonly ErrorCause[];
  readonly header?: Readonly<Record<string, string | readonly string[]>>;
  readonly stackTrace?: string;
}

export class OpenSearchError extends Error implements ErrorCause {
  readonly plain: boolean;
  readonly plainStatus: boolean;
  readonly text: boolean;
  readonly httpHeaders: Readonly<Record<string, string>>;
  readonly rootCauses: readonly ErrorCause[] | undefined;
  readonly header: Readonly<Record<string, string | readonly string[]>> | undefined;
  readonly stackTrace: string | undefined;

  constructor(
    readonly status: number,
    readonly type: string,
    readonly reason: string,
    readonly extra: Readonly<Record<string, unknown>> = {},
    readonly causedBy?: ErrorCause,
    options: boolean | OpenSearchErrorOptions = {},
  ) {
    super(reason);
    this.name = 'OpenSearchError';
    const o: OpenSearchErrorOptions = typeof options === 'boolean' ? { plain: options } : options;
    this.plain = o.plain ?? false;
    this.plainStatus = o.plainStatus ?? true;
    this.text = o.text ?? false;
    this.httpHeaders = o.httpHeaders ?? {};
    this.rootCauses = o.rootCauses;
    this.header = o.header;
    this.stackTrace = o.stackTrace;
  }
}

/**
 * Exception names of plain Java / Jackson / Lucene exceptions. OpenSearch's root-cause search
 * (`guessRootCauses`) descends through causes only while they are OpenSearch exceptions, so a cause
 * with one of these types ends the descent.
 */
const NON_OPENSEARCH_TYPES: ReadonlySet<string> = new Set([
  'exception',
  'runtime_exception',
  'illegal_argument_exception',
  'illegal_state_exception',
  'number_format_exception',
  'null_pointer_exception',
  'unsupported_operation_exception',
  'arithmetic_exception',
  'class_cast_exception',
  'index_out_of_bounds_exception',
  'array_index_out_of_bounds_exception',
  'string_index_out_of_bounds_exception',
  'concurrent_modification_exception',
  'no_such_element_exception',
  'interrupted_exception',
  'execution_exception',
  'i_o_exception',
  'unchecked_i_o_exception',
  'file_not_found_exception',
  'no_such_file_exception',
  'file_already_exists_exception',
  'access_denied_exception',
  'eof_exception',
  'e_o_f_exception',
  'pattern_syntax_exception',
  'date_time_exception',
  'date_time_parse_exception',
  'unsupported_temporal_type_exception',
  'x_content_parse_exception',
  'named_object_not_found_exception',
  'not_x_content_exception',
  'json_parse_exception',
  'json_e_o_f_exception',
  'input_coercion_exception',
  'mismatched_input_exception',
  'stream_constraints_exception',
  'too_complex_to_determinize_exception',
  'too_many_clauses',
  'corrupt_index_exception',
  'already_closed_exception',
  'lock_obtain_failed_exception',
  'stack_overflow_error',
  'out_of_memory_error',
]);

/** Whether a type names an OpenSearch exception (as opposed to a plain Java one). */
export function isOpenSearchExceptionType(type: string): boolean {
  return !NON_OPENSEARCH_TYPES.has(type);
}

/**
 * OpenSearch's root causes: from the top, follow `caused_by` while the cause is an OpenSearch
 * exception; the last one reached is the root cause. A top-level plain Java exception is its own
 * root cause.
 */
export function guessRootCauses(error: ErrorCause & { readonly rootCauses?: readonly ErrorCause[] | undefined }): ErrorCause[] {
  // Given by the engine, even empty (a search failing with no shard failure to name).
  if (error.rootCauses !== undefined) return [...error.rootCauses];
  let root: ErrorCause = error;
  // A parser's failure wrapped by the enclosing object parser (x_content in x_content) reports
  // the inner one, as OpenSearch does; other plain exceptions are their own root cause.
  const descends = (c: ErrorCause): boolean =>
    isOpenSearchExceptionType(c.type) || (c.type === 'x_content_parse_exception' && root.type === 'x_content_parse_exception');
  if (!isOpenSearchExceptionType(root.type) && root.type !== 'x_content_parse_exception') return [root];
  while (root.causedBy !== undefined && descends(root.causedBy)) root = root.causedBy;
  return [root];
}
