// Selecting scenarios and running (or recording) a selection: shared by cli.ts and compat.test.ts.

import * as path from 'node:path';
import { loadDifferences, loadGaps } from './adjust';
import { loadAllScenarioFiles, parseRequestLine, saveScenarioFile, setExpectation, type Scenario, type ScenarioFile } from './format';
import { recordExpectation } from './record';
import { runScenario, type Observed, type StepResult } from './runner';
import type { Target } from './targets';

/** `?pretty`, `?pretty=true` (anything but `false`) asks for formatted JSON, compared as text. */
function isPretty(target: string): boolean {
  const q = target.indexOf('?');
  if (q < 0) return false;
  const v = new URLSearchParams(target.slice(q + 1)).get('pretty');
  return v !== null && v !== 'false';
}

export interface Selected {
  file: ScenarioFile;
  scenario: Scenario;
  index: number;
}

/**
 * `--only` values: a scenario file (`documents`, `documents.yaml`, or a path to it), or a piece of
 * a scenario name (case-insensitive; `documents › auto id` narrows it to one file).
 */
export function select(files: ScenarioFile[], only: readonly string[] = []): Selected[] {
  const all = files.flatMap((file) => file.scenarios.map((scenario, index) => ({ file, scenario, index })));
  if (only.length === 0) return all;
  const picked = new Set<Selected>();
  for (const want of only) {
    const asFile = path.basename(want).replace(/\.ya?ml$/, '');
    let hits = all.filter((s) => s.file.area === asFile);
    if (hits.length === 0) {
      const [area, name] = want.includes('›') ? want.split('›').map((p) => p.trim().toLowerCase()) : [undefined, want.toLowerCase()];
      hits = all.filter((s) => (area === undefined || s.file.area === area) && s.scenario.name.toLowerCase().includes(name as string));
    }
    if (hits.length === 0) throw new Error(`--only ${want}: no scenario file or scenario name matches`);
    hits.forEach((h) => picked.add(h));
  }
  return all.filter((s) => picked.has(s));
}

export function loadSelection(only: readonly string[] = []): Selected[] {
  return select(loadAllScenarioFiles(), only);
}

export interface SuiteResult {
  results: StepResult[];
  /** Recording only: the scenario files rewritten, and warnings about kept matchers. */
  written: string[];
  warnings: string[];
}

export async function runSuite(target: Target, selection: readonly Selected[], opts: { record?: boolean; ignoreGaps?: boolean } = {}): Promise<SuiteResult> {
  if (opts.record && target.engine !== 'opensearch') throw new Error('--record only runs against the real OpenSearch');
  const quarry = target.engine === 'quarry';
  const differences = quarry ? loadDifferences() : [];
  const gaps = quarry && !opts.ignoreGaps ? loadGaps() : [];
  const results: StepResult[] = [];
  const warnings: string[] = [];
  const changed = new Set<ScenarioFile>();
  for (const { file, scenario, index } of selection) {
    const onStep = opts.record
      ? (i: number, observed: Observed, vars: ReadonlyMap<string, string>) => {
          const step = scenario.steps[i];
          if (!step) return;
          const stepWarnings: string[] = [];
          const pretty = isPretty(parseRequestLine(step.request).target);
          const exp = recordExpectation(step.expect, observed, pretty, vars, stepWarnings);
          warnings.push(...stepWarnings.map((w) => `${file.area} › ${scenario.name} › step ${i + 1}: ${w}`));
          setExpectation(file, index, i, exp);
          changed.add(file);
        }
      : undefined;
    const runOpts: Parameters<typeof runScenario>[2] = { baseUrl: target.baseUrl, engine: target.engine, differences, gaps };
    if (target.unavailable) runOpts.unavailable = target.unavailable;
    if (onStep) runOpts.onStep = onStep;
    results.push(...(await runScenario(file, scenario, runOpts)));
  }
  for (const file of changed) saveScenarioFile(file);
  return { results, written: [...changed].map((f) => f.file), warnings };
}

/** For Quarry: a step passes the contract when it passes and is no gap, or fails and is a gap. */
export function verdict(r: StepResult): 'pass' | 'fail' | 'gap' | 'stale-gap' {
  if (r.gap) return r.ok ? 'stale-gap' : 'gap';
  return r.ok ? 'pass' : 'fail';
}
