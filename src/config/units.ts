// OpenSearch's units: byte sizes (`100mb`, ByteSizeValue) and time values (`30s`, TimeValue),
// parsed with their rules and messages, and printed the way `?human` prints them.
import { OpenSearchError, type ErrorCause } from '../http/errors';

const KB = 1024;
const BYTE_SUFFIXES: ReadonlyArray<readonly [string, number]> = [
  ['k', KB],
  ['kb', KB],
  ['m', KB ** 2],
  ['mb', KB ** 2],
  ['g', KB ** 3],
  ['gb', KB ** 3],
  ['t', KB ** 4],
  ['tb', KB ** 4],
  ['p', KB ** 5],
  ['pb', KB ** 5],
];
const LONG_MAX = 2n ** 63n - 1n;
const LONG_RE = /^[+-]?[0-9]+$/;
const JAVA_DOUBLE_RE = /^[+-]?(NaN|Infinity|(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?[fFdD]?)$/;

function parseException(reason: string, causedBy?: ErrorCause): OpenSearchError {
  return new OpenSearchError(400, 'parse_exception', reason, {}, causedBy);
}

function illegalArgument(reason: string, causedBy?: ErrorCause): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', reason, {}, causedBy);
}

function numberFormat(s: string): ErrorCause {
  return { type: 'number_format_exception', reason: `For input string: "${s}"` };
}

/** Java's Long.parseLong, or undefined. */
function javaLong(s: string): bigint | undefined {
  if (!LONG_RE.test(s)) return undefined;
  const n = BigInt(s);
  return n > LONG_MAX || n < -LONG_MAX - 1n ? undefined : n;
}

/**
 * `ByteSizeValue.parseBytesSizeValue`: `<n><unit>` with unit b, k/kb, m/mb, g/gb, t/tb, p/pb
 * (case-insensitive, spaces allowed before the unit), or the bare values `0` and `-1`. Fractions
 * (`1.5mb`) are accepted and truncated to whole bytes, as OpenSearch does. Returns bytes.
 */
export function parseByteSize(value: string, setting: string): number {
  const lower = value.toLowerCase().trim();
  for (const [suffix, multiplier] of BYTE_SUFFIXES) {
    if (lower.endsWith(suffix)) return parseWithUnit(value, lower.slice(0, -suffix.length).trim(), suffix, multiplier, setting);
  }
  if (lower.endsWith('b')) {
    const s = lower.slice(0, -1).trim();
    const n = javaLong(s);
    if (n === undefined) throw parseException(`failed to parse [${value}]`, numberFormat(s));
    if (n < -1n) {
      throw parseException(
        `failed to parse setting [${setting}] with value [${value}] as a size in bytes`,
        { type: 'illegal_argument_exception', reason: `Values less than -1 bytes are not supported: ${n}b` },
      );
    }
    return Number(n);
  }
  if (lower === '-1') return -1;
  if (lower === '0') return 0;
  throw parseException(`failed to parse setting [${setting}] with value [${value}] as a size in bytes: unit is missing or unrecognized`);
}

function parseWithUnit(initial: string, s: string, suffix: string, multiplier: number, setting: string): number {
  const unitSuffix = suffix.length === 1 ? `${suffix}b` : suffix;
  const n = javaLong(s);
  if (n !== undefined) {
    const outOfRange = (detail: string): OpenSearchError =>
      parseException(`failed to parse setting [${setting}] with value [${initial}] as a size in bytes`, {
        type: 'illegal_argument_exception',
        reason: detail,
      });
    if (n < 0n) throw outOfRange(`Values less than -1 bytes are not supported: ${n}${unitSuffix}`);
    if (n > LONG_MAX / BigInt(multiplier)) throw outOfRange(`Values greater than ${LONG_MAX} bytes are not supported: ${n}${unitSuffix}`);
    return Number(n * BigInt(multiplier));
  }
  if (JAVA_DOUBLE_RE.test(s)) {
    const d = Number(s.replace(/[fd]$/, ''));
    if (Number.isFinite(d)) return Math.trunc(d * multiplier);
  }
  throw parseException(`failed to parse [${initial}]`, numberFormat(s));
}

export type TimeUnit = 'nanos' | 'micros' | 'ms' | 's' | 'm' | 'h' | 'd';

/** A parsed time value, as OpenSearch's TimeValue: an amount in a unit. `-1` means "none". */
export interface TimeValue {
  readonly duration: number;
  readonly unit: TimeUnit;
}

const NANOS_PER: Readonly<Record<TimeUnit, number>> = {
  nanos: 1,
  micros: 1e3,
  ms: 1e6,
  s: 1e9,
  m: 60e9,
  h: 3600e9,
  d: 86400e9,
};

// Checked in this order: `ms` before `s` and `m`.
const TIME_SUFFIXES: readonly TimeUnit[] = ['nanos', 'micros', 'ms', 's', 'm', 'h', 'd'];

/**
 * `TimeValue.parseTimeValue`: `<n><unit>` with unit nanos, micros, ms, s, m, h, d
 * (case-insensitive), or `-1` / `0` without a unit. Fractions and negatives other than -1 are
 * refused with OpenSearch's messages.
 */
export function parseTimeValue(value: string, setting: string): TimeValue {
  const normalized = value.toLowerCase().trim();
  for (const unit of TIME_SUFFIXES) {
    if (normalized.endsWith(unit)) {
      const s = normalized.slice(0, -unit.length).trim();
      const n = javaLong(s);
      if (n === undefined) {
        if (JAVA_DOUBLE_RE.test(s)) throw parseException(`failed to parse [${value}], fractional time values are not supported`, numberFormat(s));
        throw parseException(`failed to parse [${value}]`, numberFormat(s));
      }
      if (n < -1n) {
        throw illegalArgument(`failed to parse setting [${setting}] with value [${value}] as a time value: negative durations are not supported`);
      }
      return { duration: Number(n), unit };
    }
  }
  if (/^-0*1$/.test(normalized)) return { duration: -1, unit: 'ms' };
  if (/^0+$/.test(normalized)) return { duration: 0, unit: 'ms' };
  throw illegalArgument(`failed to parse setting [${setting}] with value [${value}] as a time value: unit is missing or unrecognized`);
}

/** A time value in milliseconds (fractional below a millisecond; -1 stays -1). */
export function timeValueMillis(t: TimeValue): number {
  if (t.duration < 0) return t.duration;
  return (t.duration * NANOS_PER[t.unit]) / 1e6;
}

/** Java's Double.toString for the values printed here (finite, below 10^7). */
function javaDouble(v: number): string {
  const s = String(v);
  return Number.isInteger(v) && !s.includes('e') ? `${s}.0` : s;
}

/** `Strings.format1Decimals`: one decimal, truncated, dropped when it is 0. */
function format1Decimals(value: number, suffix: string): string {
  const p = javaDouble(value);
  const dot = p.indexOf('.');
  const exp = p.search(/[eE]/);
  const fraction = p.charAt(dot + 1);
  const head = p.slice(0, dot);
  const tail = exp === -1 ? '' : p.slice(exp);
  return fraction === '0' ? `${head}${tail}${suffix}` : `${head}.${fraction}${tail}${suffix}`;
}

/** `ByteSizeValue.toString`, as `?human` prints sizes: `1023b`, `1.2kb`, `10.5mb`, `100mb`. */
export function formatBytes(bytes: number): string {
  const units: ReadonlyArray<readonly [number, string]> = [
    [KB ** 5, 'pb'],
    [KB ** 4, 'tb'],
    [KB ** 3, 'gb'],
    [KB ** 2, 'mb'],
    [KB, 'kb'],
  ];
  for (const [size, suffix] of units) {
    if (bytes >= size) return format1Decimals(bytes / size, suffix);
  }
  return format1Decimals(bytes, 'b');
}

/** `TimeValue.toString`, as `?human` prints durations: `0s`, `1.5s`, `250ms`, `2.2h`, `-1`. */
export function formatTimeValue(t: TimeValue): string {
  if (t.duration < 0) return String(t.duration);
  const nanos = t.duration * NANOS_PER[t.unit];
  if (nanos === 0) return '0s';
  let unit: TimeUnit = 'nanos';
  for (const u of ['d', 'h', 'm', 's', 'ms', 'micros'] as const) {
    if (nanos >= NANOS_PER[u]) {
      unit = u;
      break;
    }
  }
  const value = nanos / NANOS_PER[unit];
  const p = javaDouble(value);
  const dot = p.indexOf('.');
  const digit = p.charAt(dot + 1);
  return (digit === '0' || digit === '' ? p.slice(0, dot) : p.slice(0, dot + 2)) + unit;
}

/** Milliseconds printed as `?human` prints them (`took`-style durations). */
export function formatMillis(ms: number): string {
  return formatTimeValue({ duration: ms, unit: 'ms' });
}
