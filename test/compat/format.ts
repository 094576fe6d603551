// The scenario file format: YAML, one file per API area under scenarios/. See README.md.
//
// Loading validates every key, so that a typo in a hand-written scenario is an error rather than a
// silently ignored expectation. Writing (after --record) replaces only the `expect` nodes of the
// parsed document, so comments and layout elsewhere survive a re-record.

import * as fs from 'node:fs';
import * as path from 'node:path';
import { Document, isMap, isSeq, parseDocument, type Node, type ScalarTag } from 'yaml';
import { MATCHER_KINDS, Matcher, isPlainObject, show, type MatcherKind } from './matchers';

export const COMPAT_DIR = path.resolve(__dirname);
export const SCENARIO_DIR = path.join(COMPAT_DIR, 'scenarios');

const METHODS = new Set(['GET', 'HEAD', 'PUT', 'POST', 'DELETE', 'PATCH', 'OPTIONS']);

export interface Expectation {
  status: number;
  /** Selected response headers (lower-case names); headers not named here are not checked. */
  headers?: Record<string, unknown>;
  /** The parsed JSON body. */
  body?: unknown;
  /** The raw body text, for non-JSON answers (_cat) and where formatting matters (pretty). */
  text?: unknown;
}

export interface Step {
  name?: string;
  /** `METHOD /path?query`, sent verbatim (percent-encode what needs it). */
  request: string;
  headers?: Record<string, string>;
  body?: unknown;
  ndjson?: unknown[];
  raw?: string;
  /** Variables for later steps: name → dotted path into this step's response body. */
  save?: Record<string, string>;
  /** `{{…}}` in the request and expectation is sent and compared as written (mustache). */
  verbatim?: boolean;
  expect?: Expectation;
}

export interface Scenario {
  name: string;
  /** Indices (or patterns) to delete before the scenario, besides the wildcard cleanup. */
  indices?: string[];
  steps: Step[];
}

export interface ScenarioFile {
  file: string;
  /** File name without extension: the first part of every step id. */
  area: string;
  description?: string;
  scenarios: Scenario[];
  doc: Document;
}

// ---------------------------------------------------------------------------------------------
// YAML tags for matchers

export const matcherTags: ScalarTag[] = (Object.keys(MATCHER_KINDS) as MatcherKind[]).map((kind) => ({
  tag: `!${kind}`,
  identify: (v: unknown) => v instanceof Matcher && v.kind === kind,
  resolve: (src: string, onError: (msg: string) => void) => {
    try {
      return new Matcher(kind, src === '' ? undefined : src);
    } catch (e) {
      onError((e as Error).message);
      return src;
    }
  },
  // Arguments are quoted so that regexes survive intact: single quotes (no escapes, so a regex
  // reads as written) unless the argument has a quote or a control character, then JSON quotes.
  stringify: (item) => {
    const m = (item as { value: Matcher }).value;
    if (m.arg === undefined) return '';
    if (MATCHER_KINDS[kind] === 'number') return m.arg;
    return /['\u0000-\u001f]/.test(m.arg) ? JSON.stringify(m.arg) : `'${m.arg}'`;
  },
}));

export function parseYaml(text: string, file: string): Document {
  const doc = parseDocument(text, { customTags: matcherTags, prettyErrors: true });
  if (doc.errors.length > 0) throw new Error(`${file}: ${doc.errors.map((e) => e.message).join('\n')}`);
  return doc;
}

export function yamlToString(doc: Document): string {
  const out = doc.toString({ lineWidth: 0, flowCollectionPadding: false, doubleQuotedMinMultiLineLength: Number.MAX_SAFE_INTEGER });
  // The library writes a space after a tag without an argument (`!number ]`); drop it.
  return out.replace(/((?:^|[:,[\-] )![a-z]+) +(?=[,\]}]|$)/gm, '$1');
}

// ---------------------------------------------------------------------------------------------
// Validation

export class FormatError extends Error {}

function fail(where: string, msg: string): never {
  throw new FormatError(`${where}: ${msg}`);
}

function checkKeys(where: string, obj: Record<string, unknown>, allowed: readonly string[]): void {
  for (const k of Object.keys(obj)) if (!allowed.includes(k)) fail(where, `unknown key "${k}" (allowed: ${allowed.join(', ')})`);
}

function asObject(where: string, v: unknown): Record<string, unknown> {
  if (!isPlainObject(v)) fail(where, `expected a mapping, got ${show(v)}`);
  return v;
}

function asStringMap(where: string, v: unknown): Record<string, string> {
  const o = asObject(where, v);
  for (const [k, s] of Object.entries(o)) if (typeof s !== 'string') fail(`${where}.${k}`, 'expected a string');
  return o as Record<string, string>;
}

export function parseRequestLine(line: string): { method: string; target: string } {
  const m = /^([A-Z]+) (\/\S*)$/.exec(line);
  if (!m || !METHODS.has(m[1] as string)) throw new FormatError(`bad request line ${JSON.stringify(line)} (want "METHOD /path?query")`);
  return { method: m[1] as string, target: m[2] as string };
}

function validateExpectation(where: string, v: unknown): Expectation {
  const o = asObject(where, v);
  checkKeys(where, o, ['status', 'headers', 'body', 'text']);
  if (typeof o.status !== 'number') fail(where, 'status must be a number');
  if (o.body !== undefined && o.text !== undefined) fail(where, 'give body or text, not both');
  const exp: Expectation = { status: o.status };
  if (o.headers !== undefined) {
    const h = asObject(`${where}.headers`, o.headers);
    for (const k of Object.keys(h)) if (k !== k.toLowerCase()) fail(`${where}.headers`, `header names are lower-case: ${k}`);
    exp.headers = h;
  }
  if (o.body !== undefined) exp.body = o.body;
  if (o.text !== undefined) exp.text = o.text;
  return exp;
}

function validateStep(where: string, v: unknown): Step {
  const o = asObject(where, v);
  checkKeys(where, o, ['name', 'request', 'headers', 'body', 'ndjson', 'raw', 'save', 'verbatim', 'expect']);
  if (typeof o.request !== 'string') fail(where, 'request must be a string');
  try {
    parseRequestLine(o.request);
  } catch (e) {
    fail(where, (e as Error).message);
  }
  const bodies = ['body', 'ndjson', 'raw'].filter((k) => o[k] !== undefined);
  if (bodies.length > 1) fail(where, `give one of body, ndjson, raw (got ${bodies.join(', ')})`);
  const step: Step = { request: o.request };
  if (o.name !== undefined) {
    if (typeof o.name !== 'string') fail(where, 'name must be a string');
    step.name = o.name;
  }
  if (o.headers !== undefined) step.headers = asStringMap(`${where}.headers`, o.headers);
  if (o.body !== undefined) step.body = o.body;
  if (o.ndjson !== undefined) {
    if (!Array.isArray(o.ndjson)) fail(where, 'ndjson must be a list of lines');
    step.ndjson = o.ndjson;
  }
  if (o.raw !== undefined) {
    if (typeof o.raw !== 'string') fail(where, 'raw must be a string');
    step.raw = o.raw;
  }
  if (o.save !== undefined) step.save = asStringMap(`${where}.save`, o.save);
  if (o.verbatim !== undefined) {
    if (typeof o.verbatim !== 'boolean') fail(where, 'verbatim must be a boolean');
    step.verbatim = o.verbatim;
  }
  if (o.expect !== undefined && o.expect !== null) step.expect = validateExpectation(`${where}.expect`, o.expect);
  return step;
}

export function loadScenarioFile(file: string): ScenarioFile {
  const text = fs.readFileSync(file, 'utf8');
  const doc = parseYaml(text, file);
  const area = path.basename(file).replace(/\.ya?ml$/, '');
  const root = asObject(file, doc.toJS());
  checkKeys(file, root, ['description', 'scenarios']);
  if (!Array.isArray(root.scenarios)) fail(file, 'scenarios must be a list');
  const names = new Set<string>();
  const scenarios = root.scenarios.map((s: unknown, i: number): Scenario => {
    const where = `${area}.scenarios[${i}]`;
    const o = asObject(where, s);
    checkKeys(where, o, ['name', 'indices', 'steps']);
    if (typeof o.name !== 'string' || o.name === '') fail(where, 'name must be a non-empty string');
    if (names.has(o.name)) fail(where, `duplicate scenario name "${o.name}"`);
    names.add(o.name);
    if (!Array.isArray(o.steps) || o.steps.length === 0) fail(where, 'steps must be a non-empty list');
    const scenario: Scenario = { name: o.name, steps: o.steps.map((st: unknown, j: number) => validateStep(`${where}.steps[${j}]`, st)) };
    if (o.indices !== undefined) {
      if (!Array.isArray(o.indices) || !o.indices.every((x: unknown) => typeof x === 'string')) fail(where, 'indices must be a list of names');
      scenario.indices = o.indices as string[];
    }
    return scenario;
  });
  const out: ScenarioFile = { file, area, scenarios, doc };
  if (typeof root.description === 'string') out.description = root.description;
  return out;
}

export function loadAllScenarioFiles(dir = SCENARIO_DIR): ScenarioFile[] {
  return fs
    .readdirSync(dir)
    .filter((f) => /\.ya?ml$/.test(f))
    .sort()
    .map((f) => loadScenarioFile(path.join(dir, f)));
}

// ---------------------------------------------------------------------------------------------
// Step ids: "<area> › <scenario> › <step>", used by known-gaps.yaml, differences.yaml and --only.

export const SEP = ' › ';

/** The label of each step in a scenario: its name, or its request line; repeats get " #2", " #3". */
export function stepLabels(scenario: Scenario): string[] {
  const seen = new Map<string, number>();
  return scenario.steps.map((s) => {
    const base = s.name ?? s.request;
    const n = (seen.get(base) ?? 0) + 1;
    seen.set(base, n);
    return n === 1 ? base : `${base} #${n}`;
  });
}

export function stepId(area: string, scenario: string, label: string): string {
  return [area, scenario, label].join(SEP);
}

/** `*` matches any run of characters; everything else is literal. */
export function globToRegExp(glob: string): RegExp {
  return new RegExp(`^${glob.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
}

// ---------------------------------------------------------------------------------------------
// Writing recorded expectations back

/** Short collections are written inline (`_shards: {total: 2, successful: 1, failed: 0}`). */
const FLOW_MAX = 100;

function flowLength(v: unknown): number {
  return JSON.stringify(v, (_k, x: unknown) => (x instanceof Matcher ? x.toString() : x))?.length ?? 0;
}

function styleNode(node: Node | null, value: unknown): void {
  if (!node) return;
  if (isMap(node) || isSeq(node)) {
    if (flowLength(value) <= FLOW_MAX) {
      node.flow = true;
      return;
    }
    if (isMap(node)) {
      for (const pair of node.items) {
        const key = String((pair.key as { value?: unknown }).value ?? pair.key);
        styleNode(pair.value as Node, (value as Record<string, unknown>)[key]);
      }
    } else {
      node.items.forEach((item, i) => styleNode(item as Node, (value as unknown[])[i]));
    }
  }
}

export function setExpectation(file: ScenarioFile, scenarioIndex: number, stepIndex: number, exp: Expectation): void {
  const value: Record<string, unknown> = { status: exp.status };
  if (exp.headers !== undefined) value.headers = exp.headers;
  if (exp.body !== undefined) value.body = exp.body;
  if (exp.text !== undefined) value.text = exp.text;
  const node = file.doc.createNode(value) as Node;
  if (isMap(node)) {
    for (const pair of node.items) {
      const key = String((pair.key as { value?: unknown }).value);
      styleNode(pair.value as Node, value[key]);
    }
  }
  file.doc.setIn(['scenarios', scenarioIndex, 'steps', stepIndex, 'expect'], node);
}

export function saveScenarioFile(file: ScenarioFile): void {
  fs.writeFileSync(file.file, yamlToString(file.doc));
}
