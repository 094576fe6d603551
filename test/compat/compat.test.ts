// The compatibility contract, run by `npm test`: every scenario against a real Quarry process.
//
// Every step must pass, except the steps known-gaps.yaml lists, which must still fail (so the list
// shrinks as Quarry catches up: a gap that passes is an error until its entry is removed).
// Expectations were recorded from OpenSearch 2.19; differences.yaml rewrites the deliberate ones.

import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { StepResult } from './runner';
import { runScenario } from './runner';
import { loadDifferences, loadGaps } from './adjust';
import { loadSelection, verdict } from './suite';
import { startQuarry, type Target } from './targets';

const selection = loadSelection();
const differences = loadDifferences();
const gaps = loadGaps();
let target: Target | undefined;

beforeAll(async () => {
  target = await startQuarry();
}, 60_000);

afterAll(async () => {
  await target?.stop();
});

function explain(r: StepResult): string {
  if (verdict(r) === 'stale-gap') return `${r.id}\n  passes now: narrow or remove its entry in known-gaps.yaml (${r.gap?.source})`;
  return `${r.id}\n  ${r.request}\n${r.problems.map((p) => `  ${p}`).join('\n')}`;
}

// Not subject to known gaps: a server that does not start must not hide behind them.
it('Quarry starts and answers GET /', () => {
  expect(target?.unavailable).toBeUndefined();
});

const areas = [...new Set(selection.map((s) => s.file.area))];
for (const area of areas) {
  describe(area, () => {
    for (const { file, scenario } of selection.filter((s) => s.file.area === area)) {
      it(scenario.name, async () => {
        const t = target as Target;
        const opts: Parameters<typeof runScenario>[2] = { baseUrl: t.baseUrl, engine: 'quarry', differences, gaps };
        if (t.unavailable) opts.unavailable = t.unavailable;
        const results = await runScenario(file, scenario, opts);
        const wrong = results.filter((r) => verdict(r) === 'fail' || verdict(r) === 'stale-gap');
        expect(wrong.map(explain).join('\n\n'), `${wrong.length} of ${results.length} steps break the contract`).toBe('');
      });
    }
  });
}
