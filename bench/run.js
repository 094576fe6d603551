'use strict';
// `npm run bench`: every bench side by side with its peers in the same run.
//   suite    the OSB workloads in bench/workloads (bench/workload.js): Quarry, a fresh OpenSearch,
//            the engine alone, minisearch and flexsearch; ingest, the query mix, memory, start-up,
//            the correctness gate (issue 6)
//   ingest   `_bulk` over HTTP (bench/ingest.js) vs the engine alone (crates/engine/benches/ingest.rs)
//   root     `GET /` of Quarry vs a bare fastify hello-world (bench/root.js)
//   latency  `GET /` p99 while bulk ingest runs (bench/latency.js)
//   overhead what the server adds to the engine, paired op by op (bench/overhead.js, issue 5)
//   security what logging in costs a request: security off vs basic auth vs an API key (bench/security.js)
// Flags: --only <list>   comma list of: ingest, root, latency, overhead, security, reindex, suite, or within the suite a
//                        workload (debian-packages), an op (match-or), workload/op, or a category
//                        (text, term-level, sort, paging, count, aggregations); default: everything
//        --quick         a small slice for development: 3,000 docs per workload, short windows,
//                        and the ingest/root/latency/overhead benches only when named in --only
//        --contenders quarry,opensearch,engine,minisearch,flexsearch
//        --warmup 0.2 --duration 0.8 --tp-duration 0.8 --tp-clients 4 (seconds per op; suite)
//        --warmup-pass 10 (untimed passes over the whole query mix before timing any op)
//        --limit N (docs per workload) --corpus-dir DIR (default ../shared/corpus)
//        --batch 5000 --clients 2 --rounds 3 --root-duration 3 --out bench/results
// Writes results.json, summary.md and the SVG charts to bench/results/<timestamp>/ and prints
// the summary. ORACLE_HEAP sets OpenSearch's heap (default 1g).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { execFileSync } = require('node:child_process');
const { CORPORA, buildBodies, mappingPath } = require('./lib/corpus');
const { ROOT, buildEngineBench, runEngineBench, hasTaskset, quarryBuildInfo } = require('./lib/procs');
const { freshServerIngest } = require('./ingest');
const { rootBench } = require('./root');
const { latencyBench } = require('./latency');
const { overheadBench, DEBIAN_MATCH } = require('./overhead');
const { securityBench, securityMarkdown } = require('./security');
const { reindexBench, reindexMarkdown } = require('./reindex');
const { runSuite, CONTENDERS } = require('./workload');
const { suiteMarkdown, writeCharts, median } = require('./lib/report');
const { quietCheck, quietLine } = require('./lib/quiet');

const TARGETS = { ingestRatio: 0.7, debianDocsPerS: 40000, rootRatio: 0.85, latencyP99Ms: 5, serverOverEngine: 1.1, engineFloorMs: 0.2, debianMatchP50Ms: 0.25, matchRpsPerCore: 12000 };

const OLD_GROUPS = ['ingest', 'root', 'latency', 'overhead', 'security', 'reindex'];

function parseArgs(argv) {
  const o = {
    only: null,
    'corpus-dir': path.resolve(ROOT, '..', 'shared', 'corpus'),
    batch: '5000',
    clients: '2',
    rounds: '3',
    'root-duration': '3',
    contenders: CONTENDERS.join(','),
    warmup: '0.2',
    duration: '0.8',
    'tp-duration': '0.8',
    'tp-clients': '4',
    'warmup-pass': '10',
    out: path.join(__dirname, 'results'),
  };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    const eq = k.indexOf('=');
    if (k === 'quick') o.quick = true;
    else if (eq > 0) o[k.slice(0, eq)] = k.slice(eq + 1);
    else o[k] = argv[++i];
  }
  if (o.quick) {
    for (const [k, v] of Object.entries({ limit: '3000', 'warmup-pass': '2', warmup: '0.05', duration: '0.2', 'tp-duration': '0.2', 'root-duration': '1' })) {
      if (!argv.some((a) => a.replace(/^--/, '').split('=')[0] === k)) o[k] = v;
    }
  }
  const tokens = o.only ? o.only.split(',').map((t) => t.trim()).filter(Boolean) : null;
  // Which of the issue-2 benches run: named ones, or all of them in a full run without --only.
  o.groups = new Set(tokens ? tokens.filter((t) => OLD_GROUPS.includes(t)) : o.quick ? [] : OLD_GROUPS);
  // The suite: everything without --only; else the tokens that are not issue-2 groups (`ingest`
  // also selects the suite's ingest), or all of it for `suite`.
  const suiteTokens = tokens ? tokens.filter((t) => !['root', 'latency', 'overhead', 'security', 'reindex'].includes(t)) : null;
  o.suite = !tokens || suiteTokens.length > 0;
  o.suiteOnly = !tokens || suiteTokens.includes('suite') ? null : new Set(suiteTokens);
  for (const c of o.contenders.split(',')) if (!CONTENDERS.includes(c)) throw new Error(`--contenders: unknown [${c}]`);
  return o;
}

const fmt = (n, d = 0) => (Number.isFinite(n) ? n.toLocaleString('en-US', { maximumFractionDigits: d, minimumFractionDigits: d }) : 'n/a');
const mark = (ok) => (ok ? 'PASS' : 'MISS');

function environment() {
  let rev = 'unknown';
  try {
    rev = execFileSync('git', ['rev-parse', '--short', 'HEAD'], { cwd: ROOT, encoding: 'utf8' }).trim();
  } catch {}
  return {
    node: process.version,
    cpus: os.cpus().length,
    cpu_model: os.cpus()[0]?.model,
    mem_gb: Math.round(os.totalmem() / 2 ** 30),
    platform: `${os.platform()} ${os.release()}`,
    git: rev,
    taskset: hasTaskset(),
    quarry_build: quarryBuildInfo(),
  };
}

async function ingestBench(o, log) {
  const corpusDir = path.resolve(o['corpus-dir']);
  const batch = Number(o.batch);
  const clients = Number(o.clients);
  const rounds = Number(o.rounds);
  log('building the engine bench (cargo bench --no-run, release) …');
  const exe = buildEngineBench();
  const out = [];
  for (const corpus of CORPORA) {
    const built = buildBodies(corpusDir, corpus, { batch });
    log(`${corpus}: ${built.docs} docs, ${(built.rawBytes / 1e6).toFixed(1)} MB raw, ${built.bodies.length} bulks of ${batch}`);
    const http = [];
    const engine = [];
    // Alternate the two sides so drift (page cache, thermal, neighbours) hits both.
    for (let r = 0; r < rounds; r++) {
      const h = await freshServerIngest(built, { clients });
      log(`  round ${r} http   ${fmt(h.docs_per_s)} docs/s  ${fmt(h.mb_per_s, 1)} MB/s  count ${h.count_after_refresh}`);
      http.push(h);
      const [e] = await runEngineBench(exe, [
        '--corpus-dir', corpusDir, '--corpus', corpus, '--mapping', mappingPath(corpus),
        '--batch', String(batch), '--clients', String(clients),
      ]);
      log(`  round ${r} engine ${fmt(e.docs_per_s)} docs/s  ${fmt(e.mb_per_s, 1)} MB/s  count ${e.count_after_refresh}`);
      engine.push(e);
    }
    const httpDps = median(http.map((x) => x.docs_per_s));
    const engDps = median(engine.map((x) => x.docs_per_s));
    out.push({
      corpus,
      docs: built.docs,
      raw_mb: built.rawBytes / 1e6,
      batch,
      clients,
      http_docs_per_s: httpDps,
      http_mb_per_s: median(http.map((x) => x.mb_per_s)),
      engine_docs_per_s: engDps,
      engine_mb_per_s: median(engine.map((x) => x.mb_per_s)),
      // Each round's HTTP run against the engine run right after it (see root.js).
      round_ratios: http.map((h, i) => h.docs_per_s / engine[i].docs_per_s),
      ratio: median(http.map((h, i) => h.docs_per_s / engine[i].docs_per_s)),
      counts_ok: http.every((x) => x.count_after_refresh === x.docs) && engine.every((x) => x.count_after_refresh === x.docs),
      failed_bulks: http.reduce((n, x) => n + x.failed_bulks, 0) + engine.reduce((n, x) => n + x.failed_bulks, 0),
      http,
      engine,
    });
  }
  return out;
}

/** Issue 5's speed goals from the paired server/engine windows. */
function overheadMarkdown(ov) {
  const lines = [];
  const goals = [];
  const heavy = ov.ops.filter((x) => x.engine_ms >= TARGETS.engineFloorMs);
  const over = heavy.filter((x) => x.ratio > TARGETS.serverOverEngine);
  goals.push([
    `time in the server ÷ engine p50 where the engine takes ≥ ${TARGETS.engineFloorMs} ms`,
    `≤ ${TARGETS.serverOverEngine}×`,
    heavy.length ? `${heavy.length - over.length}/${heavy.length} ops; ${heavy.map((x) => `${x.key} ${fmt(x.ratio, 2)}×`).join(', ')}` : 'no op that slow',
    mark(heavy.length > 0 && over.length === 0),
  ]);
  const match = ov.ops.filter((x) => DEBIAN_MATCH.includes(x.key));
  goals.push([
    'Debian `match` top-10, p50 end to end over HTTP',
    `≤ ${TARGETS.debianMatchP50Ms} ms`,
    match.map((x) => `${x.key} ${fmt(x.server_ms, 3)} ms`).join(', '),
    mark(match.length > 0 && match.every((x) => x.server_ms <= TARGETS.debianMatchP50Ms)),
  ]);
  const ceiling = (x) => (x.ceiling_per_core === undefined ? '' : `; ceiling with HTTP at the hello-world's cost ${fmt(x.ceiling_per_core)}`);
  // Judged pinned (the node on one core, the load generator on the other) when the host could
  // pin; else on requests per server CPU second.
  const pinned = ov.match_tp.length > 0 && ov.match_tp.every((x) => x.pinned_rps !== undefined);
  const perCore = (x) => (pinned ? x.pinned_rps : x.rps_per_core);
  goals.push([
    'Debian `match` top-10 requests per core (with `_source`)',
    `≥ ${fmt(TARGETS.matchRpsPerCore)}`,
    (pinned
      ? ov.match_tp.map((x) => `${x.key} ${fmt(x.pinned_rps)} req/s pinned to one core (fastify posting its body and answering ${fmt(x.response_bytes)} B: ${fmt(x.sized_hello_pinned_rps)} req/s; with the engine alone's mean on top, a ceiling of ${fmt(x.pinned_ceiling)})`).join(', ') +
        `; fastify hello-world pinned: ${fmt(ov.hello_tp.pinned_rps)} req/s. Unpinned, per server CPU second: `
      : '') +
      ov.match_tp.map((x) => `${x.key} ${fmt(x.rps_per_core)} (${fmt(x.rps)} req/s ×${x.clients}, ${fmt(x.server_cpu_s, 2)} CPU s${ceiling(x)})`).join(', ') +
      (ov.hello_tp ? `; fastify hello-world ×${ov.hello_tp.clients}: ${fmt(ov.hello_tp.rps_per_core)}` : ''),
    mark(ov.match_tp.length > 0 && ov.match_tp.every((x) => perCore(x) >= TARGETS.matchRpsPerCore)),
  ]);
  lines.push('| goal | target | measured |  |', '|---|---:|---:|---:|');
  for (const g of goals) lines.push(`| ${g.join(' | ')} |`);
  lines.push(
    '',
    '| op | in server p50 ms | end to end p50 ms | engine alone p50 ms | engine mean ms: alone / in the node | in server ÷ engine | end to end ÷ engine | hello-world at that pace: in server / end to end ms |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  );
  for (const x of ov.ops) {
    lines.push(
      `| ${x.key} | ${fmt(x.server_in_ms, 3)} | ${fmt(x.server_ms, 3)} | ${fmt(x.engine_ms, 3)} | ${fmt(x.engine_mean_ms_median, 3)} / ${x.engine_in_node_ms_median === null ? '—' : fmt(x.engine_in_node_ms_median, 3)} | ${fmt(x.ratio, 2)} [${x.ratios.map((r) => fmt(r, 2)).join(' ')}] | ${fmt(x.client_ratio, 2)} | ${fmt(x.hello_in_ms, 3)} / ${fmt(x.hello_ms, 3)} |`,
    );
  }
  return lines.join('\n');
}

function summarize(res) {
  const lines = [];
  const rows = [];
  if (res.ingest) {
    for (const c of res.ingest) {
      const isDeb = c.corpus === 'debian-packages';
      rows.push([
        `ingest ${c.corpus} (bulk ${c.batch}, ${c.clients} clients)`,
        `${fmt(c.http_docs_per_s)} docs/s, ${fmt(c.http_mb_per_s, 1)} MB/s`,
        `engine alone: ${fmt(c.engine_docs_per_s)} docs/s, ${fmt(c.engine_mb_per_s, 1)} MB/s`,
        `${fmt(c.ratio, 2)}${c.round_ratios.length > 1 ? ` (median of rounds: ${c.round_ratios.map((x) => fmt(x, 2)).join(' ')})` : ''}`,
        `≥ ${TARGETS.ingestRatio}${isDeb ? `, ≥ ${fmt(TARGETS.debianDocsPerS)} docs/s` : ''}`,
        mark(c.ratio >= TARGETS.ingestRatio && (!isDeb || c.http_docs_per_s >= TARGETS.debianDocsPerS) && c.counts_ok && c.failed_bulks === 0),
      ]);
    }
  }
  if (res.root) {
    const r = res.root;
    rows.push([
      `GET / (-c${r.connections}, ${r.pinned ? 'server core 0, load core 1' : 'unpinned'})`,
      `${fmt(r.quarry_rps)} req/s, p99 ${fmt(r.quarry_p99_ms, 2)} ms`,
      `fastify hello: ${fmt(r.fastify_rps)} req/s, p99 ${fmt(r.fastify_p99_ms, 2)} ms`,
      `${fmt(r.ratio, 2)} (median of rounds: ${r.round_ratios.map((x) => fmt(x, 2)).join(' ')})`,
      `≥ ${TARGETS.rootRatio}`,
      mark(r.ratio >= TARGETS.rootRatio),
    ]);
  }
  if (res.latency) {
    const l = res.latency;
    rows.push([
      `GET / p99 during bulk ingest (${l.rate} req/s probe)`,
      `p99 ${fmt(l.p99_ms, 2)} ms (p50 ${fmt(l.under_ingest.service_ms.p50, 2)}, max ${fmt(l.under_ingest.service_ms.max, 1)}); from schedule p99 ${fmt(l.p99_scheduled_ms, 2)} ms` +
        (l.under_ingest.in_server_ms ? `; inside the node p99 ${fmt(l.under_ingest.in_server_ms.p99, 2)} ms (max ${fmt(l.under_ingest.in_server_ms.max, 1)})` : ''),
      `idle: p99 ${fmt(l.idle.service_ms.p99, 2)} ms; ingest ${fmt(l.ingest.docs_per_s)} docs/s meanwhile`,
      fmt(l.p99_ms / l.idle.service_ms.p99, 1) + '× idle',
      `< ${TARGETS.latencyP99Ms} ms`,
      mark(l.p99_ms < TARGETS.latencyP99Ms && l.under_ingest.errors === 0 && l.under_ingest.non2xx === 0),
    ]);
  }
  const head = ['bench', 'Quarry', 'peer (same run)', 'ratio', 'target', ''];
  lines.push(`| ${head.join(' | ')} |`, `|${head.map(() => '---').join('|')}|`);
  for (const r of rows) lines.push(`| ${r.join(' | ')} |`);
  return lines.join('\n');
}

async function main() {
  const o = parseArgs(process.argv.slice(2));
  const started = new Date();
  const t0 = Date.now();
  const log = (m) => process.stderr.write(`[bench +${((Date.now() - t0) / 1000).toFixed(0)}s] ${m}\n`);
  const res = { started: started.toISOString(), env: environment(), options: { ...o, groups: [...o.groups], suiteOnly: o.suiteOnly ? [...o.suiteOnly] : null }, targets: TARGETS };
  const dir = path.join(path.resolve(o.out), started.toISOString().replace(/[:.]/g, '-'));
  fs.mkdirSync(dir, { recursive: true });
  res.env.quiet = await quietCheck();
  log(quietLine(res.env.quiet));
  if (o.suite) {
    res.suite = await runSuite(
      {
        only: o.suiteOnly,
        contenders: o.contenders.split(','),
        corpusDir: path.resolve(o['corpus-dir']),
        warmup: Number(o.warmup),
        duration: Number(o.duration),
        tpDuration: Number(o['tp-duration']),
        tpClients: Number(o['tp-clients']),
        warmupPass: Number(o['warmup-pass']),
        limit: o.limit ? Number(o.limit) : undefined,
      },
      log,
    );
  }
  if (o.groups.has('ingest')) res.ingest = await ingestBench(o, log);
  if (o.groups.has('root')) {
    log('GET / : quarry vs fastify hello …');
    res.root = await rootBench({ rounds: Number(o.rounds), duration: Number(o['root-duration']) });
  }
  if (o.groups.has('latency')) {
    log('GET / latency during bulk ingest …');
    res.latency = await latencyBench({ corpusDir: path.resolve(o['corpus-dir']), batch: Number(o.batch), clients: Number(o.clients), duration: Number(o['root-duration']) * 2 });
  }
  if (o.groups.has('overhead')) {
    log('server vs engine alone, paired op by op …');
    res.overhead = await overheadBench({ corpusDir: path.resolve(o['corpus-dir']), rounds: Number(o.rounds) }, log);
  }
  if (o.groups.has('security')) {
    log('security: disabled vs basic auth vs API key …');
    res.security = await securityBench({ rounds: Number(o.rounds), duration: Number(o['root-duration']) }, log);
  }
  if (o.groups.has('reindex')) {
    log('reindex and delete-by-query: quarry vs opensearch …');
    res.reindex = await reindexBench({ corpusDir: path.resolve(o['corpus-dir']), rounds: Number(o.rounds), limit: o.limit ? Number(o.limit) : undefined }, log);
  }
  res.elapsed_s = (Date.now() - t0) / 1000;
  const table = res.ingest || res.root || res.latency ? summarize(res) : null;
  const overheadTable = res.overhead ? overheadMarkdown(res.overhead) : null;
  fs.writeFileSync(path.join(dir, 'results.json'), JSON.stringify(res, null, 2) + '\n');
  const e = res.env;
  const md = [
    `# Quarry bench ${res.started}`,
    '',
    `git ${e.git}, Node ${e.node}, ${e.cpus} × ${e.cpu_model}, ${e.mem_gb} GB, ${e.platform}; run took ${res.elapsed_s.toFixed(0)} s${o.quick ? '; **--quick** (a slice: not for quoting)' : ''}.`,
    '',
    quietLine(e.quiet),
    '',
  ];
  if (res.suite) {
    const s = res.suite;
    const docs = s.workloads.map((w) => `${w.name} ${w.docs.toLocaleString('en-US')}`).join(', ');
    md.push(
      '## Workloads (bench/workloads, OSB format)',
      '',
      `Docs: ${docs}. Quarry and OpenSearch both up through the query mix, each op timed on one right after the other (ingest, start-up and memory each server's own, the other up and idle), on the same ${e.cpus} cores, unpinned, the load generator in its own process: ` +
        `Quarry (release addon, fresh data dir), OpenSearch 2.19.1 (fresh node from the oracle's jars, heap ${s.os_heap}, 1 shard, 0 replicas), ` +
        `the engine alone (crates/engine/benches/search.rs on a copy of Quarry's index as its query mix saw it; every contender's merges settle before the mix), minisearch and flexsearch in-process (text ops only, top 10, not gated: other analysis and scoring). ` +
        `First ${o['warmup-pass']} untimed passes over the whole mix; then per op: ${o.warmup} s warm-up, then ${o.duration} s closed loop with 1 connection (service time) and ${o['tp-duration']} s with ${o['tp-clients']} connections (throughput). ` +
        'Gate: hit count, top ids (ties allowed; ids inside a tie wider than the page are checked by asking OpenSearch for them) and aggregations against OpenSearch; a FAILED op is not timed in the goals. Ratios are Quarry ÷ the other.',
      '',
      suiteMarkdown(s, writeCharts(s, dir)),
    );
  }
  if (table) {
    md.push(
      '## Ingest and HTTP floor (issue 2)',
      '',
      `Ingest: fresh node and data dir per round, release addon, bodies built before the clock; server and engine bench unpinned on all cores; ${o.rounds} rounds, each an HTTP run then an engine run (and a fastify run then a Quarry run for \`GET /\`): docs/s and req/s are medians, ratios the median of the rounds' paired ratios.`,
      '',
      table,
      '',
    );
  }
  if (overheadTable) {
    md.push(
      '## Server vs the engine alone (issue 5)',
      '',
      `A fresh Quarry node ingests the Debian and npm workloads, flushes and settles its merges; the engine alone (crates/engine/benches/search.rs) reads a copy of its data dir while the node stays up. Every op runs ${res.overhead.warm_pass_s} s untimed on the node first. Then per op, ${res.overhead.rounds} rounds, each one HTTP window (1 connection, ${res.overhead.warmup_s} s warm-up, ${res.overhead.duration_s} s) and one engine window (the same) seconds apart, the side going first alternating by round, then the HTTP floor at that op's pace: a bare fastify hello-world (same Node and fastify) asked at the rate the node answered, so its event loop idles between requests as the node's does while the engine works; nothing else runs. In server: from node's parsed request to the response handed to the kernel (bench/lib/server-timing.js, preloaded); end to end: the load generator's; engine mean: the engine alone's mean call, and the mean query time over the HTTP window from the node's own search statistics (\`_stats\`: query and fetch, not parsing the request or rendering the answer, which the engine alone's call includes). Ratio: the median of the rounds' in-server p50 ÷ engine p50 (each round's in brackets). Requests per core, under ${res.overhead.match_tp[0]?.clients ?? 4} connections: as the performance anchors measure it, the node restarted pinned to core 0 and the load generator on core 1 (its ceiling: the engine alone's mean on top of a fastify pinned the same way that parses the op's body and answers as many bytes as the node does); and unpinned, requests ÷ the server's CPU seconds (user + system, from /proc), where the ceiling is what a node whose HTTP costs no more than the hello-world's would reach with the engine's p50 on top.`,
      '',
      overheadTable,
      '',
    );
  }
  if (res.security) {
    md.push(
      '## What logging in costs (bench/security.js)',
      '',
      `The same build twice: security disabled, and security on over plain HTTP (TLS left out: every TLS server pays it alike), logged in by basic auth and by an API key, each credential bcrypt-checked once before timing (the steady state: header parse, remembered-digest check, permission match). ${res.security.connections} connections, ${res.security.rounds} rounds of ${res.security.duration_s} s, contenders alternating within a round; the node ${res.security.pinned ? 'pinned to core 0 and the load generator to core 1' : 'unpinned'}. ÷ disabled: the median of each round's req/s ratio to the disabled node's (rounds in brackets). \`search\`: a match query over 2,000 short docs.`,
      '',
      securityMarkdown(res.security),
      '',
    );
  }
  if (res.reindex) {
    md.push(
      '## Reindex and delete-by-query (bench/reindex.js)',
      '',
      `The ${res.reindex.corpus} corpus (${res.reindex.docs.toLocaleString('en-US')} docs) bulk-loaded into a fresh Quarry and a fresh OpenSearch (same mapping), refreshed and merged to one segment; then per round, on each server in turn, \`_reindex\` of every doc into a new index and \`_delete_by_query\` of every doc of that copy, both waited for with \`refresh=true\`, 1,000 docs per batch. Median of ${res.reindex.rounds} rounds.`,
      '',
      reindexMarkdown(res.reindex),
      '',
    );
  }
  md.push('');
  fs.writeFileSync(path.join(dir, 'summary.md'), md.join('\n'));
  console.log(md.join('\n'));
  console.log(`results: ${path.relative(process.cwd(), dir)}/{results.json,summary.md,*.svg}`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
