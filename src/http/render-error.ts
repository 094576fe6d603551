// The one error renderer: every failure, from the engine or from TypeScript, leaves as
// OpenSearch's envelope
//   {"error":{"root_cause":[…],"type":…,"reason":…,<extra>,"caused_by":…,"header":…,"stack_trace":…},"status":N}
// or, for the few failures OpenSearch answers bare, {"error":"…","status":N}.
import { guessRootCauses, OpenSearchError, type ErrorCause } from './errors';
import { stringifyPretty } from './pretty';
import { encodeJsonString, fromValue, isJsonNode, parseJson, scalar, stringifyCompact, type JsonNode, type JsonObject } from './raw-json';

export interface RenderedError {
  readonly status: number;
  readonly body: Buffer;
  /** HTTP headers that belong to the answer (`Allow` on a 405). */
  readonly headers: Readonly<Record<string, string>>;
  readonly contentType: string;
}

const JSON_TYPE = 'application/json; charset=UTF-8';

export interface RenderOptions {
  /** `?error_trace=true`: add `stack_trace` to the error and its causes. */
  readonly errorTrace: boolean;
  /** `?pretty`: errors are pretty-printed too (filter_path never applies to errors). */
  readonly pretty?: boolean;
}

const ENGINE_ERROR_CODE = 'QuarryEngineError';
const RESERVED = new Set(['type', 'reason', 'caused_by', 'status', 'root_cause', 'header', 'stack_trace']);

/** A cause whose extra values may be raw JSON trees (engine errors keep their numbers exact). */
function causeFromWire(node: JsonObject): ErrorCause {
  let type = 'exception';
  let reason = '';
  let causedBy: ErrorCause | undefined;
  let header: Record<string, string | string[]> | undefined;
  let stackTrace: string | undefined;
  const extra: Record<string, unknown> = {};
  node.keys.forEach((key, i) => {
    const value = node.values[i] as JsonNode;
    switch (key) {
      case 'type':
        type = scalarText(value) ?? type;
        return;
      case 'reason':
        reason = scalarText(value) ?? stringifyCompact(value);
        return;
      case 'caused_by':
        if (value.kind === 'object') causedBy = causeFromWire(value);
        return;
      case 'header':
        if (value.kind === 'object') header = plainHeader(value);
        return;
      case 'stack_trace':
        stackTrace = scalarText(value);
        return;
      case 'status':
      case 'root_cause':
        return;
      default:
        extra[key] = value;
    }
  });
  return { type, reason, extra, causedBy, header, stackTrace };
}

function plainHeader(node: JsonObject): Record<string, string | string[]> {
  const out: Record<string, string | string[]> = {};
  node.keys.forEach((key, i) => {
    const v = node.values[i] as JsonNode;
    if (v.kind === 'array') out[key] = v.items.map((x) => scalarText(x) ?? stringifyCompact(x));
    else out[key] = scalarText(v) ?? stringifyCompact(v);
  });
  return out;
}

/** The decoded text of a string scalar; undefined for anything else. */
function scalarText(node: JsonNode): string | undefined {
  if (node.kind !== 'scalar' || !node.raw.startsWith('"')) return undefined;
  return JSON.parse(node.raw) as string;
}

function isEngineShaped(e: unknown): e is Error & { code?: unknown } {
  if (!(e instanceof Error)) return false;
  const code = (e as { code?: unknown }).code;
  if (code === ENGINE_ERROR_CODE) return true;
  // Older bindings used napi's generic failure code; the message shape still tells.
  return e.message.startsWith('{"type":');
}

/**
 * Turns an error thrown by the native engine (a JS Error whose `code` is `QuarryEngineError` and
 * whose message is `{"type":…,"reason":…,<extra>,"caused_by":{…},"status":N}`) into an
 * OpenSearchError. Anything else is returned unchanged.
 */
export function fromEngineError(e: unknown): unknown {
  if (e instanceof OpenSearchError || !isEngineShaped(e)) return e;
  let node: JsonNode;
  try {
    node = parseJson(e.message);
  } catch {
    return (e as { code?: unknown }).code === ENGINE_ERROR_CODE ? new OpenSearchError(500, 'exception', e.message) : e;
  }
  if (node.kind !== 'object') return new OpenSearchError(500, 'exception', e.message);
  const cause = causeFromWire(node);
  const statusIndex = node.keys.indexOf('status');
  const statusNode = statusIndex >= 0 ? node.values[statusIndex] : undefined;
  const status = statusNode?.kind === 'scalar' ? Number(statusNode.raw) : NaN;
  const rootIndex = node.keys.indexOf('root_cause');
  const rootNode = rootIndex >= 0 ? node.values[rootIndex] : undefined;
  const rootCauses =
    rootNode?.kind === 'array'
      ? rootNode.items.filter((x): x is JsonObject => x.kind === 'object').map((x) => causeFromWire(x))
      : undefined;
  return new OpenSearchError(Number.isInteger(status) && status >= 100 && status <= 599 ? status : 500, cause.type, cause.reason, cause.extra, cause.causedBy, {
    ...(rootCauses !== undefined ? { rootCauses } : {}),
    ...(cause.header !== undefined ? { header: cause.header } : {}),
    ...(cause.stackTrace !== undefined ? { stackTrace: cause.stackTrace } : {}),
  });
}

/** Any thrown value as an OpenSearchError: engine errors decoded, unknown failures → 500 `exception`. */
export function toOpenSearchError(err: unknown): OpenSearchError {
  const e = fromEngineError(err);
  if (e instanceof OpenSearchError) return e;
  if (e instanceof Error) {
    return new OpenSearchError(500, 'exception', e.message, {}, undefined, { ...(e.stack !== undefined ? { stackTrace: e.stack } : {}) });
  }
  return new OpenSearchError(500, 'exception', String(e));
}

/** `index_not_found_exception` → `IndexNotFoundException`, the class name Java would print. */
function javaClassName(type: string): string {
  return type
    .split('_')
    .map((w) => (w.length > 0 ? w.charAt(0).toUpperCase() + w.slice(1) : w))
    .join('');
}

/** The first line OpenSearch prints for an exception: `[index] ClassName[reason]`. */
function javaHeadline(c: ErrorCause): string {
  const index = c.extra?.index;
  // Engine errors keep their fields as raw JSON (exact numbers), TS errors as plain values.
  const name = typeof index === 'string' ? index : isJsonNode(index) && index.kind === 'scalar' ? (JSON.parse(index.raw) as unknown) : undefined;
  const prefix = typeof name === 'string' ? `[${name}] ` : '';
  return `${prefix}${javaClassName(c.type)}[${c.reason}]`;
}

function stackOf(c: ErrorCause): string {
  if (c.stackTrace !== undefined) return c.stackTrace;
  // OpenSearch's headline (clients parse it), then Quarry's own frames.
  const frames = c instanceof Error && c.stack !== undefined ? c.stack.split('\n').filter((l) => l.trimStart().startsWith('at ')) : [];
  return [javaHeadline(c), ...frames.map((f) => `\t${f.trim()}`)].join('\n');
}

function causeNode(c: ErrorCause, withCause: boolean, errorTrace: boolean): JsonObject {
  const keys: string[] = ['type', 'reason'];
  const values: JsonNode[] = [scalar(encodeJsonString(c.type)), scalar(encodeJsonString(c.reason))];
  for (const [k, v] of Object.entries(c.extra ?? {})) {
    if (v === undefined || RESERVED.has(k)) continue;
    keys.push(k);
    values.push(isJsonNode(v) ? v : fromValue(v));
  }
  if (withCause && c.causedBy !== undefined) {
    keys.push('caused_by');
    values.push(causeNode(c.causedBy, true, errorTrace));
  }
  if (c.header !== undefined && Object.keys(c.header).length > 0) {
    keys.push('header');
    values.push(fromValue(c.header));
  }
  if (errorTrace) {
    keys.push('stack_trace');
    values.push(scalar(encodeJsonString(stackOf(c))));
  }
  return { kind: 'object', keys, values };
}

function write(node: JsonNode, pretty: boolean): Buffer {
  return Buffer.from(pretty ? stringifyPretty(node) : stringifyCompact(node), 'utf8');
}

/** Renders any thrown value as OpenSearch would answer it. */
export function renderError(err: unknown, opts: RenderOptions): RenderedError {
  const e = toOpenSearchError(err);
  const pretty = opts.pretty ?? false;
  if (e.text) return { status: e.status, body: Buffer.from(e.reason), headers: e.httpHeaders, contentType: 'text/plain; charset=UTF-8' };
  if (e.plain) {
    const keys = ['error'];
    const values: JsonNode[] = [scalar(encodeJsonString(e.reason))];
    if (e.plainStatus) {
      keys.push('status');
      values.push(scalar(String(e.status)));
    }
    return { status: e.status, body: write({ kind: 'object', keys, values }, pretty), headers: e.httpHeaders, contentType: JSON_TYPE };
  }
  const roots: JsonNode[] = guessRootCauses(e).map((c) => causeNode(c, false, opts.errorTrace));
  const main = causeNode(e, true, opts.errorTrace);
  const error: JsonObject = { kind: 'object', keys: ['root_cause', ...main.keys], values: [{ kind: 'array', items: roots }, ...main.values] };
  const envelope: JsonObject = { kind: 'object', keys: ['error', 'status'], values: [error, scalar(String(e.status))] };
  return { status: e.status, body: write(envelope, pretty), headers: e.httpHeaders, contentType: JSON_TYPE };
}
