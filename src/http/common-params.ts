// The universal URL parameters every route accepts (pretty, human, error_trace, filter_path), and
// OpenSearch's rules for reading boolean and numeric parameters.
import { badBoolean, badNumberParam } from './error-table';

/** Parameters OpenSearch's REST channel reads on every request, whatever the action. */
export const UNIVERSAL_PARAMS = ['pretty', 'human', 'error_trace', 'filter_path'] as const;

export type QueryValues = Readonly<Record<string, string | readonly string[] | undefined>>;

export interface CommonParams {
  readonly pretty: boolean;
  readonly human: boolean;
  readonly errorTrace: boolean;
  /** The raw filter_path value; undefined when absent. */
  readonly filterPath: string | undefined;
}

/** The last value of a repeated parameter, as OpenSearch keeps it. */
function single(value: string | readonly string[] | undefined): string | undefined {
  if (value === undefined || typeof value === 'string') return value;
  return value.length === 0 ? undefined : value[value.length - 1];
}

/**
 * `RestRequest.paramAsBoolean`: absent → the default; present but empty (`?pretty`) → true;
 * whitespace only → the default; otherwise exactly `true` or `false`, anything else is a 400
 * `Failed to parse value [x] as only [true] or [false] are allowed.`
 */
export function parseBoolParam(_name: string, value: string | undefined, defaultValue = false): boolean {
  if (value === undefined) return defaultValue;
  if (value.length === 0) return true;
  if (value.trim().length === 0) return defaultValue;
  if (value === 'true') return true;
  if (value === 'false') return false;
  throw badBoolean(value);
}

/**
 * Reads the universal parameters. `error_trace` is read first so that a bad `pretty` can still be
 * reported with the caller's choice of trace.
 */
export function parseCommonParams(query: QueryValues): CommonParams {
  return {
    errorTrace: parseBoolParam('error_trace', single(query.error_trace)),
    pretty: parseBoolParam('pretty', single(query.pretty)),
    human: parseBoolParam('human', single(query.human)),
    filterPath: single(query.filter_path),
  };
}

const INT_RE = /^[+-]?[0-9]+$/;
const INT_MIN = -(2n ** 31n);
const INT_MAX = 2n ** 31n - 1n;
const LONG_MIN = -(2n ** 63n);
const LONG_MAX = 2n ** 63n - 1n;

function javaInteger(value: string, min: bigint, max: bigint): bigint | undefined {
  if (!INT_RE.test(value)) return undefined;
  const n = BigInt(value);
  return n < min || n > max ? undefined : n;
}

/** `RestRequest.paramAsInt`: Java's Integer.parseInt, else `Failed to parse int parameter …`. */
export function parseIntParam(name: string, value: string | undefined, defaultValue: number): number {
  if (value === undefined) return defaultValue;
  const n = javaInteger(value, INT_MIN, INT_MAX);
  if (n === undefined) throw badNumberParam('int', name, value);
  return Number(n);
}

/**
 * `RestRequest.paramAsLong`: Java's Long.parseLong. Returned as a bigint when outside JS's safe
 * integer range, so nothing is rounded.
 */
export function parseLongParam(name: string, value: string | undefined, defaultValue: number): number | bigint {
  if (value === undefined) return defaultValue;
  const n = javaInteger(value, LONG_MIN, LONG_MAX);
  if (n === undefined) throw badNumberParam('long', name, value);
  return n >= BigInt(Number.MIN_SAFE_INTEGER) && n <= BigInt(Number.MAX_SAFE_INTEGER) ? Number(n) : n;
}

/** Java's Double.parseDouble grammar (decimal forms, NaN, Infinity, optional d/f suffix). */
const JAVA_FLOAT_RE = /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/;

/** `RestRequest.paramAsFloat` / double. */
export function parseFloatParam(name: string, value: string | undefined, defaultValue: number, kind: 'float' | 'double' = 'float'): number {
  if (value === undefined) return defaultValue;
  const trimmed = value.trim();
  if (!JAVA_FLOAT_RE.test(trimmed)) throw badNumberParam(kind, name, value);
  return Number(trimmed.replace(/[fFdD]$/, ''));
}
