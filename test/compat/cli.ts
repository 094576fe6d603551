// npm run compat -- [--target quarry|opensearch|<url>] [--record] [--only <file|scenario>]...
//                    [--ignore-gaps] [--suggest-gaps] [--verbose]
//
//   --target quarry      (default) start `node dist/server.js` on a free port with a fresh data dir
//   --target opensearch  the oracle on 127.0.0.1:9201 (`npm run oracle -- start`)
//   --target <url>       any server; Quarry's differences and gaps apply unless GET / says opensearch
//   --engine quarry|opensearch   override that detection for a URL
//   --record             run on OpenSearch and write its answers as the expectations, then re-run
//                        to prove the recording is stable
//   --only <x>           a scenario file (`documents`) or part of a scenario name; repeatable
//   --ignore-gaps        report Quarry's failing steps as failures even where known-gaps.yaml lists them
//   --suggest-gaps       print the steps failing on Quarry as known-gaps.yaml entries (to edit)
//   --prune-gaps         remove from known-gaps.yaml the steps that pass now (and emptied entries)
//   --verbose            show every difference of a failing step, not the first dozen

import { loadSelection, runSuite, verdict, type Selected } from './suite';
import { resolveTarget } from './targets';
import { pruneGaps } from './adjust';
import type { Engine, StepResult } from './runner';

interface Args {
  target: string;
  engine?: Engine;
  record: boolean;
  only: string[];
  ignoreGaps: boolean;
  suggestGaps: boolean;
  pruneGaps: boolean;
  verbose: boolean;
}

function parseArgs(argv: string[]): Args {
  const args: Args = { target: 'quarry', record: false, only: [], ignoreGaps: false, suggestGaps: false, pruneGaps: false, verbose: false };
  for (let i = 0; i < argv.length; i++) {
    const a = argv[i] as string;
    const value = () => {
      const v = argv[++i];
      if (v === undefined) throw new Error(`${a} needs a value`);
      return v;
    };
    if (a === '--target') args.target = value();
    else if (a === '--engine') {
      const e = value();
      if (e !== 'quarry' && e !== 'opensearch') throw new Error('--engine must be quarry or opensearch');
      args.engine = e;
    } else if (a === '--record') args.record = true;
    else if (a === '--only') args.only.push(value());
    else if (a === '--suggest-gaps') args.suggestGaps = true;
    else if (a === '--prune-gaps') args.pruneGaps = true;
    else if (a === '--ignore-gaps') args.ignoreGaps = true;
    else if (a === '--verbose' || a === '-v') args.verbose = true;
    else throw new Error(`unknown argument ${a}`);
  }
  if (args.record && args.target === 'quarry') args.target = 'opensearch';
  return args;
}

const color = process.stdout.isTTY && !process.env.NO_COLOR;
const paint = (code: number, s: string) => (color ? `\x1b[${code}m${s}\x1b[0m` : s);
const green = (s: string) => paint(32, s);
const red = (s: string) => paint(31, s);
const yellow = (s: string) => paint(33, s);
const dim = (s: string) => paint(2, s);

function pad(s: string, n: number): string {
  return s.length >= n ? s : s + ' '.repeat(n - s.length);
}

function printTable(selection: readonly Selected[], results: readonly StepResult[]): void {
  // gap: listed in known-gaps.yaml and failing, as it should; stale: listed but passing now
  const rows: string[][] = [['area', 'scenario', 'steps', 'pass', 'fail', 'gap', 'stale', '']];
  for (const { file, scenario } of selection) {
    const mine = results.filter((r) => r.area === file.area && r.scenario === scenario.name);
    const count = (v: ReturnType<typeof verdict>) => mine.filter((r) => verdict(r) === v).length;
    const fail = count('fail');
    const stale = count('stale-gap');
    const status = fail > 0 ? red('FAIL') : stale > 0 ? yellow('STALE GAP') : count('gap') > 0 ? yellow('gap') : green('ok');
    rows.push([file.area, scenario.name, String(mine.length), String(count('pass')), String(fail), String(count('gap')), String(stale), status]);
  }
  const widths = rows[0]!.map((_, c) => Math.max(...rows.map((r) => (c === 7 ? 0 : r[c]!.length))));
  for (const [i, r] of rows.entries()) {
    const line = r.map((cell, c) => (c >= 2 && c <= 6 ? cell.padStart(widths[c]!) : pad(cell, widths[c]!))).join('  ');
    console.log(i === 0 ? dim(line) : line);
  }
}

function printProblems(results: readonly StepResult[], verbose: boolean): void {
  const failing = results.filter((r) => verdict(r) === 'fail');
  const stale = results.filter((r) => verdict(r) === 'stale-gap');
  const maxLines = verbose ? Infinity : 12;
  for (const r of failing) {
    console.log(`\n${red('✗')} ${r.id}\n  ${dim(r.request)}`);
    for (const p of r.problems.slice(0, maxLines)) console.log(`  ${p}`);
    if (r.problems.length > maxLines) console.log(dim(`  … ${r.problems.length - maxLines} more (--verbose)`));
  }
  if (stale.length > 0) {
    console.log(`\n${yellow('These known gaps pass now: narrow or remove their entries in known-gaps.yaml')}`);
    for (const r of stale) console.log(`  ${r.id}`);
  }
}

/**
 * known-gaps.yaml entries for the steps failing now (gaps or not): a whole scenario as one glob
 * when all its steps fail. The reasons are left for the engineer to write.
 */
function printGapSuggestions(selection: readonly Selected[], results: readonly StepResult[]): void {
  console.log('\n# known-gaps.yaml entries for the failing steps (write a reason for each):\ngaps:');
  for (const { file, scenario } of selection) {
    const mine = results.filter((r) => r.area === file.area && r.scenario === scenario.name);
    const failing = mine.filter((r) => !r.ok);
    if (failing.length === 0) continue;
    const ids = failing.length === mine.length ? [`${file.area} › ${scenario.name} › *`] : failing.map((r) => r.id);
    const quoted = ids.map((id) => `'${id.replace(/'/g, "''")}'`);
    console.log(`  - steps: [${quoted.join(', ')}]\n    reason: TODO`);
  }
}

async function main(): Promise<number> {
  const args = parseArgs(process.argv.slice(2));
  const selection = loadSelection(args.only);
  const target = await resolveTarget(args.target, args.engine);
  try {
    if (target.unavailable) console.log(red(`target unavailable: ${target.unavailable}`));
    console.log(dim(`target: ${target.engine} at ${target.baseUrl}${args.record ? ' (recording)' : ''}`));
    let suite = await runSuite(target, selection, { record: args.record, ignoreGaps: args.ignoreGaps });
    if (args.record) {
      for (const w of suite.warnings) console.log(yellow(`warning: ${w}`));
      console.log(`recorded ${suite.results.length} steps into ${suite.written.length} file(s); checking the recording against a second run…`);
      suite = await runSuite(target, loadSelection(args.only));
    }
    const { results } = suite;
    printTable(selection, results);
    printProblems(results, args.verbose);
    if (args.suggestGaps) printGapSuggestions(selection, results);
    if (args.pruneGaps) {
      const stale = results.filter((r) => verdict(r) === 'stale-gap').map((r) => r.id);
      const failing = results.filter((r) => verdict(r) === 'gap').map((r) => r.id);
      const { removed, kept } = pruneGaps(stale, failing);
      console.log(`\nknown-gaps.yaml: removed ${removed.length} step(s)` + (kept.length ? `; narrow by hand: ${kept.join(', ')}` : ''));
    }
    const n = (v: ReturnType<typeof verdict>) => results.filter((r) => verdict(r) === v).length;
    const summary = `${target.engine}: ${n('pass')}/${results.length} steps passed in ${selection.length} scenarios` +
      (target.engine === 'quarry' ? `; ${n('gap')} known gaps, ${n('stale-gap')} gaps that pass now` : '') +
      `; ${n('fail')} failed`;
    console.log(`\n${n('fail') + n('stale-gap') === 0 ? green(summary) : red(summary)}`);
    return n('fail') + n('stale-gap') === 0 ? 0 : 1;
  } finally {
    await target.stop();
  }
}

main().then(
  (code) => process.exit(code),
  (e: unknown) => {
    console.error(red(e instanceof Error ? e.message : String(e)));
    process.exit(2);
  },
);
