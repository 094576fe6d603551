// The two files that say where Quarry is allowed to differ from the recorded OpenSearch answers:
//
//   differences.yaml  deliberate differences (Quarry's version, names, features the spec refuses on
//                     purpose), each with its reason; they rewrite the expectation when the target
//                     is Quarry.
//   known-gaps.yaml   steps Quarry does not pass yet, each with its reason. The test suite requires
//                     them to keep failing, so the list shrinks as Quarry catches up.
//
// Neither applies when the target is OpenSearch: there every recorded expectation must hold.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { COMPAT_DIR, FormatError, globToRegExp, parseYaml, type Expectation } from './format';
import { isPlainObject, show } from './matchers';
import { isMap, isSeq } from 'yaml';

export const DIFFERENCES_FILE = path.join(COMPAT_DIR, 'differences.yaml');
export const GAPS_FILE = path.join(COMPAT_DIR, 'known-gaps.yaml');

export interface Difference {
  /** Why Quarry differs here on purpose. Required. */
  reason: string;
  /** Globs over request lines as written in the scenarios (`GET /_cluster/health*`). */
  requests: RegExp[];
  /** Globs over step ids (`documents › update › *`). */
  steps: RegExp[];
  /** Replaces the whole expectation. */
  expect?: Expectation;
  /** `status`, `text`, `headers.<name>` or `body.<dotted.path>` (`*` = any key or index) → value. */
  patch: [string[], unknown][];
  source: string;
}

export interface Gap {
  reason: string;
  steps: RegExp[];
  source: string;
}

function obj(where: string, v: unknown): Record<string, unknown> {
  if (!isPlainObject(v)) throw new FormatError(`${where}: expected a mapping, got ${show(v)}`);
  return v;
}

function globs(where: string, v: unknown): RegExp[] {
  if (v === undefined) return [];
  const list = Array.isArray(v) ? v : [v];
  return list.map((g) => {
    if (typeof g !== 'string') throw new FormatError(`${where}: expected glob strings`);
    return globToRegExp(g);
  });
}

function reasonOf(where: string, o: Record<string, unknown>): string {
  if (typeof o.reason !== 'string' || o.reason.trim().length < 10) throw new FormatError(`${where}: every entry needs a reason`);
  return o.reason.trim();
}

/** Splits `body.a\.b.c` into ['body', 'a.b', 'c']. */
function splitPath(p: string): string[] {
  return p.split(/(?<!\\)\./).map((s) => s.replace(/\\\./g, '.'));
}

export function loadDifferences(file = DIFFERENCES_FILE): Difference[] {
  const root = obj(file, parseYaml(fs.readFileSync(file, 'utf8'), file).toJS());
  const list = root.differences;
  if (!Array.isArray(list)) throw new FormatError(`${file}: differences must be a list`);
  return list.map((entry: unknown, i: number) => {
    const where = `${path.basename(file)} differences[${i}]`;
    const o = obj(where, entry);
    for (const k of Object.keys(o)) {
      if (!['reason', 'requests', 'steps', 'expect', 'patch'].includes(k)) throw new FormatError(`${where}: unknown key "${k}"`);
    }
    const d: Difference = { reason: reasonOf(where, o), requests: globs(where, o.requests), steps: globs(where, o.steps), patch: [], source: where };
    if (d.requests.length === 0 && d.steps.length === 0) throw new FormatError(`${where}: say which requests or steps it applies to`);
    if (o.expect !== undefined) {
      const e = obj(`${where}.expect`, o.expect);
      if (typeof e.status !== 'number') throw new FormatError(`${where}.expect: status must be a number`);
      d.expect = e as unknown as Expectation;
    }
    if (o.patch !== undefined) {
      for (const [k, v] of Object.entries(obj(`${where}.patch`, o.patch))) {
        const p = splitPath(k);
        if (!['status', 'text', 'headers', 'body'].includes(p[0] as string)) throw new FormatError(`${where}.patch: bad path "${k}"`);
        d.patch.push([p, v]);
      }
    }
    if (!d.expect && d.patch.length === 0) throw new FormatError(`${where}: give expect or patch`);
    return d;
  });
}

export function loadGaps(file = GAPS_FILE): Gap[] {
  const root = obj(file, parseYaml(fs.readFileSync(file, 'utf8'), file).toJS());
  const list = root.gaps ?? [];
  if (!Array.isArray(list)) throw new FormatError(`${file}: gaps must be a list`);
  return list.map((entry: unknown, i: number) => {
    const where = `${path.basename(file)} gaps[${i}]`;
    const o = obj(where, entry);
    for (const k of Object.keys(o)) if (!['reason', 'steps'].includes(k)) throw new FormatError(`${where}: unknown key "${k}"`);
    const steps = globs(where, o.steps);
    if (steps.length === 0) throw new FormatError(`${where}: steps is required`);
    return { reason: reasonOf(where, o), steps, source: where };
  });
}

export function differencesFor(diffs: readonly Difference[], id: string, requestLine: string): Difference[] {
  return diffs.filter((d) => d.steps.some((re) => re.test(id)) || d.requests.some((re) => re.test(requestLine)));
}

export function gapFor(gaps: readonly Gap[], id: string): Gap | undefined {
  return gaps.find((g) => g.steps.some((re) => re.test(id)));
}

function clone<T>(v: T): T {
  if (Array.isArray(v)) return v.map(clone) as T;
  if (isPlainObject(v)) return Object.fromEntries(Object.entries(v).map(([k, x]) => [k, clone(x)])) as T;
  return v; // primitives and Matchers (immutable)
}

/**
 * Replaces the value at every place `segments` reaches inside `container` (`*` = any key or index).
 * Only values the recorded expectation has are replaced: a patch never adds a field, so a body
 * narrowed by filter_path is left alone.
 */
function setPath(container: unknown, segments: string[], value: unknown): void {
  const [head, ...rest] = segments;
  if (head === undefined || (!isPlainObject(container) && !Array.isArray(container))) return;
  const c = container as Record<string, unknown>;
  const keys = head === '*' ? Object.keys(c) : [head];
  for (const k of keys) {
    if (!Object.prototype.hasOwnProperty.call(c, k)) continue;
    if (rest.length === 0) c[k] = value;
    else setPath(c[k], rest, value);
  }
}

/** The expectation Quarry must meet: the recorded one rewritten by the deliberate differences. */
export function applyDifferences(exp: Expectation, diffs: readonly Difference[]): Expectation {
  let out = clone(exp);
  for (const d of diffs) {
    if (d.expect) out = clone(d.expect);
    for (const [p, v] of d.patch) {
      const [head, ...rest] = p;
      if (head === 'status') {
        if (typeof v !== 'number') throw new FormatError(`${d.source}: status must be a number`);
        out.status = v;
      } else if (head === 'text') {
        out.text = v;
      } else if (rest.length === 0) {
        (out as unknown as Record<string, unknown>)[head as string] = v;
      } else {
        setPath(out[head as 'headers' | 'body'], rest, v);
      }
    }
  }
  return out;
}

/**
 * Removes from known-gaps.yaml the step globs that match only steps passing now (`stale`), and the
 * entries left with no step; comments and reasons stay as written. A glob that also covers a step
 * still failing is kept (and returned) for the engineer to narrow by hand.
 */
export function pruneGaps(stale: readonly string[], failing: readonly string[], file = GAPS_FILE): { removed: string[]; kept: string[] } {
  const doc = parseYaml(fs.readFileSync(file, 'utf8'), file);
  const gaps = doc.get('gaps');
  const removed: string[] = [];
  const kept: string[] = [];
  if (!isSeq(gaps)) return { removed, kept };
  for (let i = gaps.items.length - 1; i >= 0; i--) {
    const entry = gaps.items[i];
    const steps = isMap(entry) ? entry.get('steps') : undefined;
    if (!isSeq(steps)) continue;
    for (let j = steps.items.length - 1; j >= 0; j--) {
      const glob = String((steps.items[j] as { value?: unknown }).value ?? steps.items[j]);
      const re = globToRegExp(glob);
      if (!stale.some((id) => re.test(id))) continue;
      if (failing.some((id) => re.test(id))) {
        kept.push(glob);
        continue;
      }
      steps.items.splice(j, 1);
      removed.push(glob);
    }
    if (steps.items.length === 0) gaps.items.splice(i, 1);
  }
  fs.writeFileSync(file, doc.toString({ lineWidth: 100, flowCollectionPadding: false }));
  return { removed, kept };
}
