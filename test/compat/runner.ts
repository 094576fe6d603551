// Runs scenarios against one server over plain HTTP and compares each answer with its expectation.
//
// node:http rather than fetch: clients send bodies on GET (`_search`, `_count`, ...) and fetch
// refuses that; node:http also sends the path exactly as written, which invalid-name scenarios need.

import * as http from 'node:http';
import { applyDifferences, differencesFor, gapFor, type Difference, type Gap } from './adjust';
import { parseRequestLine, stepId, stepLabels, type Expectation, type Scenario, type ScenarioFile, type Step } from './format';
import { Matcher, VERBATIM, compare, hasVars, interpolate, interpolateDeep, isPlainObject, show } from './matchers';

export type Engine = 'quarry' | 'opensearch';

export interface Observed {
  status: number;
  /** Lower-case names; repeated headers joined with ", ". */
  headers: Record<string, string>;
  text: string;
  /** The parsed body when the answer is JSON. */
  json?: unknown;
}

export interface StepResult {
  id: string;
  area: string;
  scenario: string;
  label: string;
  request: string;
  ok: boolean;
  problems: string[];
  observed?: Observed;
  /** The expectation the step was checked against (after differences). */
  expected?: Expectation;
  differences: Difference[];
  gap?: Gap;
}

export interface RunOptions {
  baseUrl: string;
  engine: Engine;
  /** Applied only when the engine is Quarry. */
  differences?: readonly Difference[];
  gaps?: readonly Gap[];
  /** Set when the target could not be started: every step fails with it. */
  unavailable?: string;
  /** Called after each answered step (recording uses it); `vars` as the step saw them. */
  onStep?: (stepIndex: number, observed: Observed, vars: ReadonlyMap<string, string>) => void;
}

const agent = new http.Agent({ keepAlive: true, maxSockets: 1 });
const REQUEST_TIMEOUT_MS = 30_000;

export function send(baseUrl: string, method: string, target: string, headers: Record<string, string> = {}, body?: Buffer): Promise<Observed> {
  const url = new URL(baseUrl);
  const hdrs: Record<string, string> = { ...headers };
  if (body) hdrs['content-length'] = String(body.length);
  return new Promise((resolve, reject) => {
    const req = http.request(
      { host: url.hostname, port: url.port, method, path: target, headers: hdrs, agent, timeout: REQUEST_TIMEOUT_MS },
      (res) => {
        const chunks: Buffer[] = [];
        res.on('data', (c: Buffer) => chunks.push(c));
        res.on('end', () => {
          const text = Buffer.concat(chunks).toString('utf8');
          const out: Observed = { status: res.statusCode ?? 0, headers: {}, text };
          for (const [k, v] of Object.entries(res.headers)) {
            if (v !== undefined) out.headers[k.toLowerCase()] = Array.isArray(v) ? v.join(', ') : v;
          }
          if (text !== '' && /json/i.test(out.headers['content-type'] ?? '')) {
            try {
              out.json = JSON.parse(text);
            } catch {
              // not JSON after all: compared as text, and reported if JSON was expected
            }
          }
          resolve(out);
        });
        res.on('error', reject);
      },
    );
    req.on('timeout', () => req.destroy(new Error(`no answer within ${REQUEST_TIMEOUT_MS / 1000}s`)));
    req.on('error', reject);
    req.end(body);
  });
}

/**
 * Every scenario starts from an empty cluster: delete all indices (hidden ones too), then the
 * scenario's own list in case the wildcard form is not supported.
 */
async function cleanup(baseUrl: string, scenario: Scenario): Promise<void> {
  const r = await send(baseUrl, 'DELETE', '/*?expand_wildcards=all');
  if (r.status !== 200) await send(baseUrl, 'DELETE', '/*');
  for (const index of scenario.indices ?? []) await send(baseUrl, 'DELETE', `/${encodeURIComponent(index)}`);
}

function requestBody(step: Step, vars: ReadonlyMap<string, string>): { body?: Buffer; contentType?: string } {
  if (step.body !== undefined) return { body: Buffer.from(JSON.stringify(interpolateDeep(step.body, vars))), contentType: 'application/json' };
  if (step.ndjson !== undefined) {
    const lines = step.ndjson.map((l) => (typeof l === 'string' ? interpolate(l, vars) : JSON.stringify(interpolateDeep(l, vars))));
    return { body: Buffer.from(lines.map((l) => `${l}\n`).join('')), contentType: 'application/x-ndjson' };
  }
  if (step.raw !== undefined) return { body: Buffer.from(interpolate(step.raw, vars)), contentType: 'application/json' };
  return {};
}

export async function sendStep(baseUrl: string, step: Step, vars: ReadonlyMap<string, string>): Promise<Observed> {
  const { method, target } = parseRequestLine(interpolate(step.request, vars));
  const { body, contentType } = requestBody(step, vars);
  const headers: Record<string, string> = {};
  if (contentType) headers['content-type'] = contentType;
  for (const [k, v] of Object.entries(step.headers ?? {})) headers[k.toLowerCase()] = interpolate(v, vars);
  return send(baseUrl, method, target, headers, body);
}

/** Compares an answer with an expectation; returns the differences, one per line. */
export function check(exp: Expectation, obs: Observed, vars: ReadonlyMap<string, string>): string[] {
  const problems: string[] = [];
  if (exp.status !== obs.status) problems.push(`status: expected ${exp.status}, got ${obs.status}`);
  for (const [name, want] of Object.entries(exp.headers ?? {})) {
    const present = Object.prototype.hasOwnProperty.call(obs.headers, name);
    if (want instanceof Matcher) {
      const p = want.test(obs.headers[name], present);
      if (p) problems.push(`headers.${name}: ${p}`);
    } else if (!present) {
      problems.push(`headers.${name}: missing (expected ${show(want)})`);
    } else {
      compare(want, obs.headers[name], `headers.${name}`, problems, vars);
    }
  }
  if (exp.body !== undefined) {
    if (obs.json === undefined) problems.push(`body: expected JSON, got ${obs.text === '' ? 'no body' : show(obs.text)}`);
    else compare(exp.body, obs.json, 'body', problems, vars);
  } else if (exp.text !== undefined) {
    compare(exp.text, obs.text, 'text', problems, vars);
  } else if (obs.text !== '') {
    problems.push(`body: expected none, got ${show(obs.json ?? obs.text)}`);
  }
  return problems;
}

/** Reads a dotted path (`items.0.index._id`) out of a parsed body. */
export function pick(value: unknown, dotted: string): unknown {
  let cur = value;
  for (const seg of dotted.split('.')) {
    if (Array.isArray(cur)) cur = cur[Number(seg)];
    else if (isPlainObject(cur)) cur = cur[seg];
    else return undefined;
  }
  return cur;
}

export async function runScenario(file: ScenarioFile, scenario: Scenario, opts: RunOptions): Promise<StepResult[]> {
  const labels = stepLabels(scenario);
  const vars = new Map<string, string>();
  const results: StepResult[] = [];
  let setupError = opts.unavailable;
  if (!setupError) {
    try {
      await cleanup(opts.baseUrl, scenario);
    } catch (e) {
      setupError = `cleanup failed: ${(e as Error).message}`;
    }
  }
  for (const [i, step] of scenario.steps.entries()) {
    const label = labels[i] as string;
    const id = stepId(file.area, scenario.name, label);
    const quarry = opts.engine === 'quarry';
    const differences = quarry ? differencesFor(opts.differences ?? [], id, step.request) : [];
    const result: StepResult = { id, area: file.area, scenario: scenario.name, label, request: step.request, ok: false, problems: [], differences };
    const gap = quarry ? gapFor(opts.gaps ?? [], id) : undefined;
    if (gap) result.gap = gap;
    results.push(result);
    if (setupError) {
      result.problems.push(setupError);
      continue;
    }
    try {
      const stepVars = step.verbatim === true ? VERBATIM : vars;
      const observed = await sendStep(opts.baseUrl, step, stepVars);
      result.observed = observed;
      opts.onStep?.(i, observed, stepVars);
      if (!step.expect) {
        result.problems.push('no expectation yet: record it with --record');
      } else {
        const expected = differences.length > 0 ? applyDifferences(step.expect, differences) : step.expect;
        result.expected = expected;
        result.problems.push(...check(expected, observed, stepVars));
      }
      for (const [name, where] of Object.entries(step.save ?? {})) {
        const v = pick(observed.json, where);
        if (v === undefined || (typeof v === 'object' && v !== null)) result.problems.push(`save ${name}: no scalar at ${where}`);
        else vars.set(name, String(v));
      }
    } catch (e) {
      result.problems.push(`request failed: ${(e as Error).message}`);
    }
    result.ok = result.problems.length === 0;
  }
  return results;
}

/** True when the expectation contains something a re-record must keep (matchers, {{vars}}). */
export function isPinned(v: unknown): boolean {
  return v instanceof Matcher || (typeof v === 'string' && hasVars(v));
}
