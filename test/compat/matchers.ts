// Expected values and how observed responses are compared with them.
//
// Comparison is strict: every field the expectation names must be there with an equal value, and
// a field it does not name is a failure. Where a value legitimately varies between runs (timings,
// uuids, auto ids, dates) the expectation holds a Matcher instead, written in the scenario files as
// a YAML tag (`took: !number`). Key order is not compared: JSON objects are unordered, and where
// order matters (pretty printing) a step compares the raw text instead.

export type MatcherKind =
  | 'ignore'
  | 'absent'
  | 'number'
  | 'string'
  | 'uuid'
  | 'regex'
  | 'gt'
  | 'gte'
  | 'lt'
  | 'lte'
  | 'length';

/** Which kinds take an argument (`!gt 0`) and which stand alone (`!number`). */
export const MATCHER_KINDS: Record<MatcherKind, 'none' | 'number' | 'string'> = {
  ignore: 'none', // any value, but the field must be present
  absent: 'none', // the field must not be present (for patches and headers)
  number: 'none',
  string: 'none',
  uuid: 'none', // OpenSearch's base64url ids: index/cluster uuids (22 chars), auto doc ids (20 chars)
  regex: 'string',
  gt: 'number',
  gte: 'number',
  lt: 'number',
  lte: 'number',
  length: 'number', // array length, string length or number of object keys
};

const UUID = /^[A-Za-z0-9_-]{20,22}$/;

export class Matcher {
  private readonly re: RegExp | undefined;

  constructor(
    readonly kind: MatcherKind,
    readonly arg?: string,
  ) {
    const argType = MATCHER_KINDS[kind];
    if (argType === 'none' && arg !== undefined) throw new Error(`!${kind} takes no argument (got ${JSON.stringify(arg)})`);
    if (argType !== 'none' && arg === undefined) throw new Error(`!${kind} needs an argument`);
    if (argType === 'number' && !Number.isFinite(Number(arg))) throw new Error(`!${kind} needs a number (got ${JSON.stringify(arg)})`);
    this.re = kind === 'regex' ? new RegExp(arg as string) : undefined;
  }

  toString(): string {
    return this.arg === undefined ? `!${this.kind}` : `!${this.kind} ${JSON.stringify(this.arg)}`;
  }

  /** null when the value matches, otherwise what was wrong. `present` is false for a missing field. */
  test(value: unknown, present: boolean): string | null {
    if (this.kind === 'absent') return present ? `expected no value, got ${show(value)}` : null;
    if (!present) return `missing (expected ${this})`;
    const n = Number(this.arg);
    switch (this.kind) {
      case 'ignore':
        return null;
      case 'number':
        return typeof value === 'number' ? null : `expected a number, got ${show(value)}`;
      case 'string':
        return typeof value === 'string' ? null : `expected a string, got ${show(value)}`;
      case 'uuid':
        return typeof value === 'string' && UUID.test(value) ? null : `expected a uuid, got ${show(value)}`;
      case 'regex':
        return typeof value === 'string' && (this.re as RegExp).test(value) ? null : `expected to match /${this.arg}/, got ${show(value)}`;
      case 'gt':
        return typeof value === 'number' && value > n ? null : `expected > ${n}, got ${show(value)}`;
      case 'gte':
        return typeof value === 'number' && value >= n ? null : `expected >= ${n}, got ${show(value)}`;
      case 'lt':
        return typeof value === 'number' && value < n ? null : `expected < ${n}, got ${show(value)}`;
      case 'lte':
        return typeof value === 'number' && value <= n ? null : `expected <= ${n}, got ${show(value)}`;
      case 'length': {
        const len = lengthOf(value);
        return len === n ? null : `expected length ${n}, got ${len === undefined ? show(value) : len}`;
      }
    }
  }
}

function lengthOf(value: unknown): number | undefined {
  if (typeof value === 'string' || Array.isArray(value)) return value.length;
  if (isPlainObject(value)) return Object.keys(value).length;
  return undefined;
}

export function isPlainObject(v: unknown): v is Record<string, unknown> {
  return typeof v === 'object' && v !== null && !Array.isArray(v) && !(v instanceof Matcher);
}

export function show(v: unknown): string {
  if (v instanceof Matcher) return v.toString();
  const s = JSON.stringify(v);
  if (s === undefined) return String(v);
  return s.length > 120 ? `${s.slice(0, 117)}...` : s;
}

/** `{{name}}` in strings refers to a value saved by an earlier step of the scenario. */
const VAR = /\{\{\s*([A-Za-z0-9_]+)\s*\}\}/g;

export function hasVars(s: string): boolean {
  VAR.lastIndex = 0;
  return VAR.test(s);
}

/** The variables of a `verbatim` step: none, and its `{{…}}` (mustache) left as written. */
export const VERBATIM: ReadonlyMap<string, string> = new Map();

export function interpolate(s: string, vars: ReadonlyMap<string, string>): string {
  if (vars === VERBATIM) return s;
  return s.replace(VAR, (_, name: string) => {
    const v = vars.get(name);
    if (v === undefined) throw new Error(`{{${name}}} is not saved by an earlier step`);
    return v;
  });
}

/** Interpolates every string inside a JSON-like value. */
export function interpolateDeep(value: unknown, vars: ReadonlyMap<string, string>): unknown {
  if (typeof value === 'string') return interpolate(value, vars);
  if (Array.isArray(value)) return value.map((v) => interpolateDeep(v, vars));
  if (isPlainObject(value)) {
    const out: Record<string, unknown> = {};
    for (const [k, v] of Object.entries(value)) out[interpolate(k, vars)] = interpolateDeep(v, vars);
    return out;
  }
  return value;
}

/**
 * Compares an observed value with an expectation and appends one line per difference to `out`,
 * each prefixed with the path of the differing value (`body.error.root_cause[0].type`).
 */
export function compare(expected: unknown, actual: unknown, path: string, out: string[], vars: ReadonlyMap<string, string>): void {
  if (expected instanceof Matcher) {
    const problem = expected.test(actual, true);
    if (problem) out.push(`${path}: ${problem}`);
    return;
  }
  if (Array.isArray(expected)) {
    if (!Array.isArray(actual)) {
      out.push(`${path}: expected an array, got ${show(actual)}`);
      return;
    }
    const n = Math.max(expected.length, actual.length);
    for (let i = 0; i < n; i++) {
      if (i >= actual.length) out.push(`${path}[${i}]: missing ${show(expected[i])}`);
      else if (i >= expected.length) out.push(`${path}[${i}]: unexpected ${show(actual[i])}`);
      else compare(expected[i], actual[i], `${path}[${i}]`, out, vars);
    }
    return;
  }
  if (isPlainObject(expected)) {
    if (!isPlainObject(actual)) {
      out.push(`${path}: expected an object, got ${show(actual)}`);
      return;
    }
    for (const [key, exp] of Object.entries(expected)) {
      const sub = `${path}.${key}`;
      const present = Object.prototype.hasOwnProperty.call(actual, key);
      if (exp instanceof Matcher) {
        const problem = exp.test(actual[key], present);
        if (problem) out.push(`${sub}: ${problem}`);
      } else if (!present) {
        out.push(`${sub}: missing (expected ${show(exp)})`);
      } else {
        compare(exp, actual[key], sub, out, vars);
      }
    }
    for (const key of Object.keys(actual)) {
      if (!Object.prototype.hasOwnProperty.call(expected, key)) out.push(`${path}.${key}: unexpected field ${show(actual[key])}`);
    }
    return;
  }
  const want = typeof expected === 'string' && hasVars(expected) ? interpolate(expected, vars) : expected;
  if (want !== actual) out.push(`${path}: expected ${show(want)}, got ${show(actual)}`);
}
