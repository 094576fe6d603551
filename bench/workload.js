'use strict';
// "osb-lite": replays the OpenSearch Benchmark workloads in bench/workloads/ (the same files
// `npm run bench:osb` gives the real OSB) against each contender; the two servers are both up
// through the query mix and each op is timed on one right after the other:
//   opensearch  a private, fresh OpenSearch 2.19.1 (bench/lib/opensearch.js), the reference;
//   quarry      a fresh `node dist/server.js` on a fresh data dir;
//   engine      crates/engine/benches/search.rs on the data dir Quarry built (no HTTP, no JS);
//   minisearch, flexsearch  in-process (bench/jsengines.js) on the text operations.
// Per server: start-up (spawn → first `GET /` 200); per workload `_bulk` ingest with the
// schedule's clients (docs/s, MB/s of the corpus' NDJSON), refresh; RSS after ingest; index
// size on disk after `_flush`; each search op: one answer for the correctness gate, closed-loop
// service time (1 connection) and throughput (`tpClients` connections) with bench/lib/loadgen.js
// in its own process, server CPU time per 1,000 requests (/proc/<pid>/stat); RSS after the query
// mix; then `_forcemerge?max_num_segments=1` (last, so every contender answers the query mix
// from the index as ingested).
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ensureDocuments, bulkBodies } = require('./lib/osbdocs');
const { startQuarry, runJsonChild, buildEngineBench, runEngineBench } = require('./lib/procs');
const { startOpenSearch, OS_HEAP } = require('./lib/opensearch');
const { httpIngest, procCpuSeconds } = require('./ingest');
const { request, agent } = require('./lib/http');
const { gate, widen, restrictToIds } = require('./lib/gate');

const WORKLOADS_DIR = path.join(__dirname, 'workloads');
const WORKLOADS = ['debian-packages', 'npm-packages', 'flights', 'spam-assassin'];
const OPLOAD = path.join(__dirname, 'lib', 'opload.js');
const JSENGINES = path.join(__dirname, 'jsengines.js');
const CONTENDERS = ['opensearch', 'quarry', 'engine', 'minisearch', 'flexsearch'];

/** Reads bench/workloads/<name>: the index, the corpus file, bulk settings and the query ops. */
function loadWorkload(name) {
  const dir = path.join(WORKLOADS_DIR, name);
  const wl = JSON.parse(fs.readFileSync(path.join(dir, 'workload.json'), 'utf8'));
  const index = wl.indices[0].name;
  const byName = new Map(wl.operations.map((o) => [o.name, o]));
  const schedule = wl.test_procedures[0].schedule;
  const task = (n) => schedule.find((t) => t.operation === n) ?? {};
  const bulk = wl.operations.find((o) => o['operation-type'] === 'bulk');
  const doc = wl.corpora[0].documents[0];
  const queries = [];
  for (const t of schedule) {
    const op = byName.get(typeof t.operation === 'string' ? t.operation : t.operation.name);
    if (!op) continue;
    if (op['operation-type'] === 'search') {
      queries.push({ name: op.name, method: 'POST', path: `/${op.index ?? index}/_search`, index: op.index ?? index, body: op.body ?? {} });
    } else if (op['operation-type'] === 'raw-request') {
      queries.push({ name: op.name, method: op.method ?? 'GET', path: op.path, index, body: op.body ?? {} });
    }
  }
  for (const q of queries) q.category = category(q);
  return {
    name,
    dir,
    index,
    indexBody: fs.readFileSync(path.join(dir, wl.indices[0].body)),
    corpus: wl.corpora[0].name,
    sourceFile: doc['source-file'],
    documentCount: doc['document-count'],
    bulkSize: bulk['bulk-size'],
    bulkClients: task(bulk.name).clients ?? 1,
    hasForceMerge: wl.operations.some((o) => o['operation-type'] === 'force-merge'),
    queries,
  };
}

function category(q) {
  const b = q.body;
  if (q.path.endsWith('/_count')) return 'count';
  if (b.aggs || b.aggregations) return 'aggregations';
  if (b.search_after || b.sort || (b.from ?? 0) > 0) return 'sort & paging';
  if (b.track_total_hits === true) return 'count';
  if (/"(match|match_phrase|multi_match|query_string|simple_query_string)"/.test(JSON.stringify(b.query ?? {}))) return 'text';
  return 'term-level';
}

function isTextOp(q) {
  return q.category === 'text';
}

/** Which workloads/ops `--only` selects: tokens are workload names, op names, `wl/op`, categories or `ingest`. */
function select(only) {
  const all = WORKLOADS.map(loadWorkload);
  const tokens = only ? [...only] : null;
  const cats = new Set(['text', 'term-level', 'sort', 'sort & paging', 'paging', 'count', 'aggregations']);
  const out = [];
  for (const w of all) {
    let queries;
    let ingest;
    if (!tokens) {
      queries = w.queries;
      ingest = true;
    } else {
      queries = w.queries.filter((q) =>
        tokens.some((t) => t === w.name || t === q.name || t === `${w.name}/${q.name}` || (cats.has(t) && (q.category === t || (q.category === 'sort & paging' && (t === 'sort' || t === 'paging'))))),
      );
      ingest = tokens.includes('ingest') || tokens.includes('force-merge') || tokens.includes(w.name);
    }
    if (queries.length || ingest) out.push({ ...w, queries, measureIngest: ingest });
  }
  return out;
}

function rssMb(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
    const rss = /VmRSS:\s+(\d+) kB/.exec(s);
    const hwm = /VmHWM:\s+(\d+) kB/.exec(s);
    return { rss_mb: rss ? Number(rss[1]) / 1024 : NaN, peak_rss_mb: hwm ? Number(hwm[1]) / 1024 : NaN };
  } catch {
    return { rss_mb: NaN, peak_rss_mb: NaN };
  }
}

function dirSize(p) {
  let n = 0;
  let entries;
  try {
    entries = fs.readdirSync(p, { withFileTypes: true });
  } catch {
    return 0;
  }
  for (const e of entries) {
    const f = path.join(p, e.name);
    try {
      n += e.isDirectory() ? dirSize(f) : fs.statSync(f).size;
    } catch {}
  }
  return n;
}

/** Waits (up to maxMs) until the process uses < 15 % of a core over 100 ms. */
async function settle(pid, maxMs = 20000) {
  const t0 = Date.now();
  let prev = procCpuSeconds(pid);
  while (Date.now() - t0 < maxMs) {
    await new Promise((r) => setTimeout(r, 100));
    const cur = procCpuSeconds(pid);
    if (!(cur - prev > 0.015)) return Date.now() - t0;
    prev = cur;
  }
  return Date.now() - t0;
}

async function call(url, method, p, body) {
  const buf = body === undefined ? undefined : Buffer.from(JSON.stringify(body));
  const r = await request(`${url}${p}`, { method, body: buf, headers: buf ? { 'content-type': 'application/json' } : {} });
  let parsed;
  try {
    parsed = JSON.parse(r.body.toString('utf8'));
  } catch {
    parsed = r.body.toString('utf8').slice(0, 500);
  }
  return { status: r.status, body: parsed };
}

/**
 * A server contender up with every selected workload ingested, its merges settled and its mix
 * warmed up: the ops are then timed one by one (`measureOp`), and `closeServer` finishes it.
 */
async function openServer(kind, workloads, o, log) {
  const t = kind === 'opensearch' ? await startOpenSearch() : await startQuarry({ dataDir: fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-suite-')) });
  log(`${kind}: up in ${t.startupMs.toFixed(0)} ms (pid ${t.pid}${kind === 'opensearch' ? `, heap ${t.heap}` : ''})`);
  const res = { contender: kind, startup_ms: t.startupMs, ...(kind === 'opensearch' ? { heap: t.heap } : {}), rss_start: rssMb(t.pid), ingest: {}, ops: {}, force_merge: {} };
  try {
    for (const w of workloads) {
      const built = w.built;
      await call(t.url, 'DELETE', `/${w.index}`);
      // httpIngest creates the index from bench/workloads/<corpus>/index.json, bulks, refreshes, counts.
      const cpu0 = procCpuSeconds(t.pid);
      const r = await httpIngest(t.url, { corpus: w.name, bodies: built.bodies, docs: built.docs, rawBytes: built.rawBytes, bodyBytes: built.bodyBytes }, { clients: w.bulkClients, index: w.index });
      r.server_cpu_seconds = procCpuSeconds(t.pid) - cpu0;
      res.ingest[w.name] = r;
      log(`${kind}: ingest ${w.name} ${Math.round(r.docs_per_s)} docs/s, ${r.mb_per_s.toFixed(1)} MB/s, refresh ${r.refresh_ms.toFixed(0)} ms, count ${r.count_after_refresh}/${r.docs}${r.failed_bulks ? `, ${r.failed_bulks} failed bulks` : ''}`);
    }
    res.rss_after_ingest = rssMb(t.pid);
    await call(t.url, 'POST', '/_flush');
    res.index_bytes = dirSize(t.dataDir);
    // Background merges finish before any op is timed, on every contender: the query mix then
    // measures search, not search beside a merge, and the engine alone (run on a copy of
    // Quarry's data dir taken after the mix) reads the same segments Quarry's server did.
    res.merge_settle_ms = await settleMerges(t.url);
    await call(t.url, 'POST', '/_refresh');
    // A warm-up pass over the whole mix (each op `warmupPass` times) before any op is timed, so
    // that no contender's first ops pay for cold code paths (the JVM's JIT above all).
    const wa = agent(1);
    const spent = new Map(); // ms per op: an op stops warming once it has had 1 s
    for (let i = 0; i < (o.warmupPass ?? 10); i++) {
      for (const w of workloads) {
        for (const q of w.queries) {
          const key = `${w.name}/${q.name}`;
          if ((spent.get(key) ?? 0) > 1000) continue;
          const buf = Buffer.from(JSON.stringify(q.body));
          const t0 = Date.now();
          await request(`${t.url}${q.path}`, { method: q.method, body: buf, headers: { 'content-type': 'application/json' }, agent: wa });
          spent.set(key, (spent.get(key) ?? 0) + Date.now() - t0);
        }
      }
    }
    wa.destroy();
  } catch (e) {
    await t.stop();
    throw e;
  }
  return { kind, t, res };
}

/** One op on an open server: its answer for the gate, then its latency and throughput. */
async function measureOp({ kind, t, res }, w, q, o, log, tmp, verify = new Map()) {
  const key = `${w.name}/${q.name}`;
  const ts = process.hrtime.bigint();
  const sample = await call(t.url, q.method, q.path, q.body);
  const sampleMs = Number(process.hrtime.bigint() - ts) / 1e6;
  const wideBody = kind === 'opensearch' && !q.path.endsWith('/_count') ? widen(q.body) : null;
  const wide = wideBody ? await call(t.url, q.method, q.path, wideBody) : null;
  // Ids another contender returned inside a tie wider than the window: ask OpenSearch for
  // exactly those documents under the same query, so the gate can check their keys.
  const inWindow = new Set([sample, wide].flatMap((r) => r?.body?.hits?.hits?.map((h) => h._id) ?? []));
  const unknown = [...(verify.get(key) ?? [])].filter((id) => !inWindow.has(id));
  const verifyBody = wideBody && unknown.length ? restrictToIds(q.body, unknown) : null;
  const verified = verifyBody ? await call(t.url, q.method, q.path, verifyBody) : null;
  const entry = { category: q.category, sample, wide, verified };
  if (sample.status >= 200 && sample.status < 300) {
    const bodyFile = path.join(tmp, `${kind}-${w.name}-${q.name}.json`);
    fs.writeFileSync(bodyFile, JSON.stringify(q.body));
    const cpu0 = procCpuSeconds(t.pid);
    // An op slower than 1 s a request gets 3 closed-loop samples and no throughput phase
    // (its throughput is the closed loop's): the budget is 10 minutes for everything.
    const slow = sampleMs > 1000;
    const { latency: lat, throughput: tp } = await runJsonChild(OPLOAD, [
      '--url', `${t.url}${q.path}`, '--method', q.method, '--body-file', bodyFile,
      '--warmup', String(slow ? 0 : o.warmup), '--duration', String(slow ? 0.01 : o.duration),
      '--tp-clients', String(slow ? 0 : o.tpClients), '--tp-warmup', String(Math.min(o.warmup, 0.1)), '--tp-duration', String(o.tpDuration),
    ]);
    if (slow) entry.slow = `${Math.round(sampleMs)} ms a request: 3 samples, no throughput phase`;
    // Requests the load generator gave up on may still be running: wait for the server to
    // go idle so the next op is timed alone (and their CPU time is counted here).
    await settle(t.pid);
    const cpu = procCpuSeconds(t.pid) - cpu0;
    entry.service_ms = lat.service_ms;
    entry.closed_loop_rps = lat.rps;
    entry.throughput_rps = tp.rps;
    entry.throughput_clients = o.tpClients;
    entry.throughput_service_ms = tp.service_ms;
    entry.non2xx = lat.non2xx + tp.non2xx;
    entry.errors = lat.errors + tp.errors;
    entry.cpu_ms_per_1000 = (cpu * 1000 * 1000) / (lat.total_requests + tp.total_requests);
    log(`${kind}: ${key} p50 ${lat.service_ms.p50.toFixed(3)} ms p99 ${lat.service_ms.p99.toFixed(3)} ms, ${Math.round(tp.rps)} req/s ×${o.tpClients}, cpu ${entry.cpu_ms_per_1000.toFixed(0)} ms/1000`);
  } else {
    log(`${kind}: ${key} → ${sample.status} (not measured)`);
  }
  res.ops[key] = entry;
}

/** After the mix: RSS, Quarry's data dir copied for the engine, force merges, stop. */
async function closeServer({ kind, t, res }, workloads, log) {
  try {
    res.rss_after_queries = rssMb(t.pid);
    if (kind === 'quarry') {
      await call(t.url, 'POST', '/_flush');
      fs.cpSync(t.dataDir, snapshotDir(t.dataDir), { recursive: true });
    }
    for (const w of workloads) {
      if (!w.hasForceMerge || !w.measureIngest) continue;
      const t0 = process.hrtime.bigint();
      const r = await call(t.url, 'POST', `/${w.index}/_forcemerge?max_num_segments=1`);
      const ms = Number(process.hrtime.bigint() - t0) / 1e6;
      res.force_merge[w.name] = { status: r.status, ms, ...(r.status >= 300 ? { error: typeof r.body === 'object' ? r.body.error?.type ?? r.body.error : r.body } : {}) };
      log(`${kind}: force merge ${w.name} → ${r.status} in ${ms.toFixed(0)} ms`);
    }
    if (Object.values(res.force_merge).some((f) => f.status < 300)) {
      await call(t.url, 'POST', '/_flush');
      res.index_bytes_after_force_merge = dirSize(t.dataDir);
    }
  } finally {
    await t.stop();
  }
  return { res, dataDir: t.dataDir };
}

/** Where the copy of Quarry's data dir as its query mix saw it goes (the engine reads it). */
function snapshotDir(dataDir) {
  return `${dataDir}-as-queried`;
}

/** Waits (at most 60 s) until no merge runs on the node; returns how long that took. */
async function settleMerges(url) {
  const t0 = Date.now();
  while (Date.now() - t0 < 60_000) {
    const r = await call(url, 'GET', '/_stats/merge');
    // The metric is `merge` (the section `merges`): an error here once made every settle a no-op.
    if (r.status !== 200) throw new Error(`GET /_stats/merge → ${r.status}: ${JSON.stringify(r.body)}`);
    const current = r.body?._all?.total?.merges?.current;
    if (current === 0 || current === undefined) break;
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  return Date.now() - t0;
}

/** The engine alone on Quarry's data dir as Quarry's query mix saw it. */
async function runEngine(workloads, dataDir, o, log, tmp) {
  const exe = buildEngineBench('search');
  const ops = [];
  for (const w of workloads) {
    for (const q of w.queries) {
      ops.push({
        name: `${w.name}/${q.name}`,
        action: q.path.endsWith('/_count') ? 'indices:data/read/count' : 'indices:data/read/search',
        params: { index: w.index },
        body: q.body,
      });
    }
  }
  const opsFile = path.join(tmp, 'engine-ops.json');
  fs.writeFileSync(opsFile, JSON.stringify(ops));
  const lines = await runEngineBench(exe, ['--data-dir', dataDir, '--ops', opsFile, '--warmup-ms', String(Math.round(o.warmup * 1000)), '--duration-ms', String(Math.round(Math.min(o.duration, 0.5) * 1000))]);
  const res = { contender: 'engine', ops: {} };
  for (const l of lines) {
    res.ops[l.name] = { sample: { status: l.status, body: l.response }, ...(l.status >= 200 && l.status < 300 ? { service_ms: l.service_ms, closed_loop_rps: l.rps } : {}) };
  }
  log(`engine: ${lines.length} ops on Quarry's index`);
  return res;
}

/** minisearch / flexsearch in their own processes on each workload's text ops. */
async function runJsEngine(engine, workloads, o, log, tmp) {
  const res = { contender: engine, ingest: {}, ops: {}, memory: {} };
  for (const w of workloads) {
    const text = w.queries.filter(isTextOp);
    if (!text.length) continue;
    const opsFile = path.join(tmp, `${engine}-${w.name}.json`);
    fs.writeFileSync(opsFile, JSON.stringify(text.map((q) => ({ name: q.name, body: q.body }))));
    const r = await runJsonChild(JSENGINES, ['--engine', engine, '--file', w.docsFile, '--ops', opsFile, '--limit', String(w.built.docs), '--warmup', String(o.warmup), '--duration', String(o.duration)]);
    res.version = r.version;
    res.ingest[w.name] = { docs: r.docs, docs_per_s: r.docs_per_s, build_s: r.build_s, fields: r.fields, text_mb: r.text_mb };
    res.memory[w.name] = { heap_mb: r.heap_mb, rss_mb: r.rss_mb };
    for (const [name, v] of Object.entries(r.ops)) res.ops[`${w.name}/${name}`] = v.applicable ? { service_ms: v.service_ms, closed_loop_rps: v.rps, hits: v.hits } : { applicable: false };
    log(`${engine}: ${w.name} built ${r.docs} docs in ${r.build_s.toFixed(1)} s; ${Object.keys(r.ops).length} text ops`);
  }
  return res;
}

/**
 * Runs the suite. o: { only, contenders, quick, corpusDir, warmup, duration, tpDuration, tpClients, limit }.
 * Returns { workloads: [...], contenders: {name: result}, gate: {key: {contender: {ok, reason}}} }.
 */
async function runSuite(o, log) {
  const workloads = select(o.only);
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-ops-'));
  for (const w of workloads) {
    const d = ensureDocuments(o.corpusDir, w.corpus, w.index, w.sourceFile);
    if (d.docs !== w.documentCount) log(`warning: ${w.name} has ${d.docs} docs, workload.json says ${w.documentCount}`);
    w.docsFile = d.file;
    w.built = bulkBodies(d.file, { bulkSize: w.bulkSize, limit: o.limit ?? Infinity });
    log(`${w.name}: ${w.built.docs} docs, ${(w.built.rawBytes / 1e6).toFixed(1)} MB, ${w.built.bodies.length} bulks of ${w.bulkSize}, ${w.queries.length} queries`);
  }
  const out = { os_heap: OS_HEAP, options: { ...o, only: o.only ? [...o.only] : null }, workloads: workloads.map((w) => ({ name: w.name, index: w.index, docs: w.built.docs, raw_bytes: w.built.rawBytes, bulk_size: w.bulkSize, bulk_clients: w.bulkClients, queries: w.queries.map((q) => ({ name: q.name, category: q.category, method: q.method, path: q.path, body: q.body })) })), contenders: {}, gate: {} };
  const want = new Set(o.contenders);
  try {
    // Both servers are up through the query mix, and each op is timed on one right after the
    // other (Quarry first, so OpenSearch can be asked about the ids it returned): the host's
    // speed drifts by up to 2x over minutes, which timing every op of one server before any of
    // the other turned into ratios. Ingest, memory and start-up are each server's own, measured
    // while the other is up and idle.
    const servers = [];
    let quarryDir;
    try {
      if (want.has('quarry') || want.has('engine')) servers.push(await openServer('quarry', workloads, o, log));
      if (want.has('opensearch')) servers.push(await openServer('opensearch', workloads, o, log));
      for (const w of workloads) {
        for (const q of w.queries) {
          const key = `${w.name}/${q.name}`;
          const verify = new Map();
          for (const s of servers) {
            await measureOp(s, w, q, o, log, tmp, verify);
            for (const h of s.res.ops[key]?.sample?.body?.hits?.hits ?? []) (verify.get(key) ?? verify.set(key, new Set()).get(key)).add(h._id);
          }
        }
      }
      while (servers.length) {
        const { res, dataDir } = await closeServer(servers.shift(), workloads, log);
        out.contenders[res.contender] = res;
        if (res.contender === 'quarry') quarryDir = dataDir;
      }
      if (want.has('engine') && quarryDir) out.contenders.engine = await runEngine(workloads, snapshotDir(quarryDir), o, log, tmp);
    } finally {
      // On an error: stop what is still up.
      for (const s of servers) await s.t.stop();
      if (quarryDir) {
        fs.rmSync(quarryDir, { recursive: true, force: true });
        fs.rmSync(snapshotDir(quarryDir), { recursive: true, force: true });
      }
    }
    for (const e of ['minisearch', 'flexsearch']) if (want.has(e)) out.contenders[e] = await runJsEngine(e, workloads, o, log, tmp);
  } finally {
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  // The gate: Quarry and the engine against OpenSearch's answers.
  const ref = out.contenders.opensearch;
  for (const name of ['quarry', 'engine']) {
    const c = out.contenders[name];
    if (!c) continue;
    for (const [key, e] of Object.entries(c.ops)) {
      const g = ref ? gate(ref.ops[key]?.sample, ref.ops[key]?.wide, e.sample, ref.ops[key]?.verified) : { ok: null, reason: 'no OpenSearch in this run' };
      if (!ref && e.sample && (e.sample.status < 200 || e.sample.status > 299)) Object.assign(g, gate(null, null, e.sample));
      e.gate = g;
      (out.gate[key] ??= {})[name] = g;
    }
  }
  // Keep the raw answers small in results.json: the gate's verdicts stay, the bodies go.
  for (const c of Object.values(out.contenders)) {
    for (const e of Object.values(c.ops)) {
      if (e.sample) e.sample = { status: e.sample.status, total: e.sample.body?.hits?.total ?? e.sample.body?.count, ids: e.sample.body?.hits?.hits?.map((h) => h._id), error: e.sample.status >= 300 ? e.sample.body?.error : undefined };
      delete e.wide;
      delete e.verified;
    }
  }
  return out;
}

module.exports = { runSuite, loadWorkload, select, settleMerges, WORKLOADS, CONTENDERS };
