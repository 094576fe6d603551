// The one error renderer: every failure, from the engine or from TypeScript, leaves as
// OpenSearch's envelope {"error":{"root_cause":[…],"type","reason",…},"status":N}.
import { OpenSearchError, type ErrorCause } from './errors';

interface Wire {
  type?: unknown;
  reason?: unknown;
  status?: unknown;
  caused_by?: unknown;
  [k: string]: unknown;
}

function causeFromWire(w: Wire): ErrorCause {
  const extra: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(w)) {
    if (k !== 'type' && k !== 'reason' && k !== 'status' && k !== 'caused_by') extra[k] = v;
  }
  const cause: ErrorCause = {
    type: String(w.type),
    reason: String(w.reason),
    extra,
    ...(w.caused_by && typeof w.caused_by === 'object' ? { causedBy: causeFromWire(w.caused_by as Wire) } : {}),
  };
  return cause;
}

/** Engine errors arrive as JS errors whose message is the OpenSearch cause as JSON. */
export function fromEngineError(e: unknown): unknown {
  if (!(e instanceof Error) || !e.message.startsWith('{')) return e;
  try {
    const w = JSON.parse(e.message) as Wire;
    if (typeof w.type !== 'string' || typeof w.status !== 'number') return e;
    const c = causeFromWire(w);
    return new OpenSearchError(w.status, c.type, c.reason, c.extra, c.causedBy);
  } catch {
    return e;
  }
}

function causeJson(c: ErrorCause, withCause: boolean): Record<string, unknown> {
  const out: Record<string, unknown> = { type: c.type, reason: c.reason, ...(c.extra ?? {}) };
  if (withCause && c.causedBy) out.caused_by = causeJson(c.causedBy, true);
  return out;
}

// Plain Java exceptions: OpenSearch never reports them as a root cause when an OpenSearch
// exception wraps them.
const JAVA_TYPES = new Set([
  'illegal_argument_exception',
  'illegal_state_exception',
  'number_format_exception',
  'json_parse_exception',
  'date_time_parse_exception',
  'not_x_content_exception',
  'exception',
]);

/** The deepest OpenSearch exception in the cause chain (OpenSearch's guessRootCauses). */
function rootCauses(c: ErrorCause): ErrorCause[] {
  let root = c;
  for (let cur = c.causedBy; cur !== undefined; cur = cur.causedBy) {
    if (!JAVA_TYPES.has(cur.type)) root = cur;
  }
  return [root];
}

export function renderError(err: unknown, opts: { errorTrace: boolean }): { status: number; body: Buffer } {
  let e = fromEngineError(err);
  if (!(e instanceof OpenSearchError)) {
    const message = e instanceof Error ? e.message : String(e);
    e = new OpenSearchError(500, 'exception', message);
  }
  const os = e as OpenSearchError;
  if (os.plain) {
    return { status: os.status, body: Buffer.from(JSON.stringify({ error: os.reason, status: os.status })) };
  }
  const top: Record<string, unknown> = {
    root_cause: rootCauses(os).map((c) => causeJson(c, false)),
    ...causeJson(os, true),
  };
  if (opts.errorTrace && os.stack !== undefined) top.stack_trace = os.stack;
  return { status: os.status, body: Buffer.from(JSON.stringify({ error: top, status: os.status })) };
}
