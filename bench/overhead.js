'use strict';
// What the server adds to the engine (issue 5): each op of the Debian and npm workloads timed
// over HTTP on a Quarry node and by the engine alone (crates/engine/benches/search.rs) on a copy
// of that node's data dir, alternately, op by op and round by round, with nothing else running.
// The host's speed drifts by up to 2x over minutes and by 1.5x between one-second windows; timing
// the two sides minutes apart (as the suite's engine pass after the mix does) put that drift into
// the ratio, so here each round pairs an HTTP window with an engine window taken seconds apart,
// the side going first alternating by round, and the ratio is the median of the paired ratios.
//
// "Server time" is timed inside the node (lib/server-timing.js: from the parsed request to the
// response handed to the kernel); the client's p50 is kept beside it. Each round also times the
// HTTP floor at the op's pace: a bare fastify hello-world (same Node, same fastify), asked at
// the rate the node answered that op, so its event loop idles between requests as the node's
// does while the engine works. On this VM a thread that idles for a few hundred microseconds
// comes back slow, and that floor grows with the gap (hello-world at 180 req/s costs 0.2-0.6 ms
// of CPU a request, against 0.08-0.1 ms back to back).
//
// Also measured: the Debian `match` ops' throughput per core under 4 connections, two ways: as
// requests per second of server CPU (the node's user + system time, read from /proc), both
// cores shared with the load generator; and, as the performance anchors define "per core", the
// node pinned to core 0 and the load generator to core 1.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startQuarry, startHello, runJsonChild, buildEngineBench, runEngineBench, hasTaskset } = require('./lib/procs');
const { ensureDocuments, bulkBodies } = require('./lib/osbdocs');
const { httpIngest, procCpuSeconds } = require('./ingest');
const { select, settleMerges } = require('./workload');
const { request, json } = require('./lib/http');
const { median } = require('./lib/report');

const LOADGEN = path.join(__dirname, 'lib', 'loadgen.js');
/** The ops issue 5's "a `match` top-10 on the Debian corpus" names. */
const DEBIAN_MATCH = ['debian-packages/match-or', 'debian-packages/match-and'];

/** The index's primaries' search statistics: `{ query_total, query_time_in_millis, … }`. */
async function searchStats(url, index) {
  const r = await json(`${url}/${index}/_stats/search`);
  if (r.status !== 200) throw new Error(`GET /${index}/_stats/search → ${r.status}`);
  return r.body._all.primaries.search;
}

async function post(url, p) {
  const r = await request(`${url}${p}`, { method: 'POST' });
  if (r.status >= 300) throw new Error(`POST ${p} → ${r.status}`);
}

/**
 * o: { corpusDir, workloads, rounds, warmup, duration, tpDuration, tpClients, warmPass }; log(line).
 * Returns { rounds, ops: [{ key, server_p50_ms[] (client), server_in_p50_ms[] (in the node), engine_p50_ms[], engine_mean_ms[],
 * engine_in_node_ms[] (mean, from the node's _stats),
 * hello_p50_ms[], hello_in_p50_ms[] (the paced hello-world), ratios[] (in the node ÷ engine), ... }], match_tp }.
 */
async function overheadBench(o, log) {
  const { corpusDir, workloads: names = ['debian-packages', 'npm-packages'], rounds = 3, warmup = 0.3, duration = 1, tpDuration = 2, tpClients = 4, warmPass = 1 } = o;
  const workloads = select(new Set(names));
  const exe = buildEngineBench('search');
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-overhead-'));
  const dataDir = path.join(tmp, 'data');
  const copyDir = path.join(tmp, 'data-copy');
  const q = await startQuarry({ dataDir, timed: true });
  const hello = await startHello({ timed: true });
  const out = { rounds, warm_pass_s: warmPass, warmup_s: warmup, duration_s: duration, ops: [], match_tp: [] };
  try {
    for (const w of workloads) {
      const d = ensureDocuments(corpusDir, w.corpus, w.index, w.sourceFile);
      const built = bulkBodies(d.file, { bulkSize: w.bulkSize });
      const r = await httpIngest(q.url, { corpus: w.name, ...built }, { clients: w.bulkClients, index: w.index });
      log(`overhead: ingested ${w.name}, ${r.count_after_refresh} docs`);
    }
    await post(q.url, '/_flush');
    await settleMerges(q.url);
    await post(q.url, '/_refresh');
    // The engine reads a copy: the node keeps its own open (and its lock) throughout.
    fs.cpSync(dataDir, copyDir, { recursive: true });
    // Each op's files once: its body for the load generator, its one-op list for the engine.
    const ops = workloads.flatMap((w) =>
      w.queries.map((op, i) => {
        const key = `${w.name}/${op.name}`;
        const bodyFile = path.join(tmp, `body-${w.name}-${i}.json`);
        const opsFile = path.join(tmp, `op-${w.name}-${i}.json`);
        const action = op.path.endsWith('/_count') ? 'indices:data/read/count' : 'indices:data/read/search';
        fs.writeFileSync(bodyFile, JSON.stringify(op.body));
        fs.writeFileSync(opsFile, JSON.stringify([{ name: key, action, params: { index: w.index }, body: op.body }]));
        return { key, op, bodyFile, opsFile, index: w.index };
      }),
    );
    // An op's load on the node (or on `url`), the load generator pinned to `cpus` if given.
    const load = (o, connections, warm, dur, { url = q.url, cpus } = {}) =>
      runJsonChild(LOADGEN, ['--url', `${url}${o.op.path}`, '--method', o.op.method, '--body-file', o.bodyFile, '--connections', String(connections), '--warmup', String(warm), '--duration', String(dur)], { cpus });
    // A window's client p50 and in-server p50; the server's times of the warm-up's requests come
    // first and are dropped. On the node, also the engine's own mean query time over the window,
    // from its search statistics (a search's or count's query and fetch, without parsing the
    // request or rendering the answer).
    const timedWindow = async (srv, run, index) => {
      const before = index && (await searchStats(srv.url, index));
      await srv.takeTimings();
      const r = await run();
      const inServer = (await srv.takeTimings()).slice(r.total_requests - r.requests);
      const after = index && (await searchStats(srv.url, index));
      const n = index ? after.query_total - before.query_total : 0;
      const inNode = n > 0 ? (after.query_time_in_millis - before.query_time_in_millis) / n : null;
      return { client: r.service_ms.p50, inServer: median(inServer), engineInNode: inNode };
    };
    // A node fresh from ingest answers its first few thousand searches up to 1.5x slower (cold
    // code paths, the page cache, the heap the bulks left): every op runs a while untimed first.
    for (const o of ops) await load(o, 1, 0, warmPass);
    for (const o of ops) {
      const server = () => timedWindow(q, () => load(o, 1, warmup, duration), o.index);
      const floor = (rate) =>
        timedWindow(hello, () => runJsonChild(LOADGEN, ['--url', `${hello.url}/`, '--connections', '1', '--rate', String(rate), '--warmup', String(warmup), '--duration', String(duration)]));
      const engine = () =>
        runEngineBench(exe, ['--data-dir', copyDir, '--ops', o.opsFile, '--warmup-ms', String(Math.round(warmup * 1000)), '--duration-ms', String(Math.round(duration * 1000))]).then(([l]) => l.service_ms);
      const s = [];
      const e = [];
      const h = [];
      for (let r = 0; r < rounds; r++) {
        if (r % 2 === 0) {
          s.push(await server());
          e.push(await engine());
        } else {
          e.push(await engine());
          s.push(await server());
        }
        h.push(await floor(1000 / s[r].client));
      }
      const ratios = s.map((x, i) => x.inServer / e[i].p50);
      const clientRatios = s.map((x, i) => x.client / e[i].p50);
      const entry = {
        key: o.key,
        server_p50_ms: s.map((x) => x.client),
        server_in_p50_ms: s.map((x) => x.inServer),
        engine_p50_ms: e.map((x) => x.p50),
        engine_mean_ms: e.map((x) => x.mean),
        engine_in_node_ms: s.map((x) => x.engineInNode),
        hello_p50_ms: h.map((x) => x.client),
        hello_in_p50_ms: h.map((x) => x.inServer),
        ratios,
        client_ratios: clientRatios,
        server_ms: median(s.map((x) => x.client)),
        server_in_ms: median(s.map((x) => x.inServer)),
        engine_ms: median(e.map((x) => x.p50)),
        engine_mean_ms_median: median(e.map((x) => x.mean)),
        engine_in_node_ms_median: s.every((x) => x.engineInNode !== null) ? median(s.map((x) => x.engineInNode)) : null,
        hello_ms: median(h.map((x) => x.client)),
        hello_in_ms: median(h.map((x) => x.inServer)),
        ratio: median(ratios),
        client_ratio: median(clientRatios),
      };
      out.ops.push(entry);
      log(
        `overhead: ${o.key} in server ${entry.server_in_ms.toFixed(3)} ms (client ${entry.server_ms.toFixed(3)}), engine ${entry.engine_ms.toFixed(3)} ms, ` +
          `ratio ${entry.ratio.toFixed(2)} [${ratios.map((x) => x.toFixed(2)).join(' ')}] (client ${entry.client_ratio.toFixed(2)}), ` +
          `engine mean alone ${entry.engine_mean_ms_median.toFixed(3)} ms, in the node ${entry.engine_in_node_ms_median === null ? 'n/a' : entry.engine_in_node_ms_median.toFixed(3)} ms, ` +
          `hello at that pace ${entry.hello_in_ms.toFixed(3)} ms in server (client ${entry.hello_ms.toFixed(3)})`,
      );
    }
    // A load run and the server's CPU seconds (user + system, from /proc) over it.
    const withCpu = async (pid, run) => {
      const cpu0 = procCpuSeconds(pid);
      const r = await run();
      return { r, cpu: procCpuSeconds(pid) - cpu0 };
    };
    for (const o of ops.filter((x) => DEBIAN_MATCH.includes(x.key))) {
      const { r, cpu } = await withCpu(q.pid, () => load(o, tpClients, 0, tpDuration));
      // Every request the child sent counts against the CPU read over its whole run.
      const perCore = r.total_requests / cpu;
      out.match_tp.push({ key: o.key, clients: tpClients, rps: r.rps, server_cpu_s: cpu, requests: r.total_requests, rps_per_core: perCore });
      log(`overhead: ${o.key} ×${tpClients}: ${Math.round(r.rps)} req/s, ${Math.round(perCore)} req per server CPU second`);
    }
    // The per-core floor of HTTP alone: the hello-world under the same connections. With the
    // engine's own time per call, it bounds what any node on fastify can reach per core.
    if (out.match_tp.length) {
      const { r, cpu } = await withCpu(hello.pid, () =>
        runJsonChild(LOADGEN, ['--url', `${hello.url}/`, '--connections', String(tpClients), '--warmup', '0', '--duration', String(tpDuration)]),
      );
      out.hello_tp = { clients: tpClients, rps: r.rps, server_cpu_s: cpu, requests: r.total_requests, rps_per_core: r.total_requests / cpu };
      for (const m of out.match_tp) {
        const engineMs = out.ops.find((x) => x.key === m.key)?.engine_ms;
        if (engineMs !== undefined) m.ceiling_per_core = 1 / (1 / out.hello_tp.rps_per_core + engineMs / 1000);
      }
      log(`overhead: hello-world ×${tpClients}: ${Math.round(r.rps)} req/s, ${Math.round(out.hello_tp.rps_per_core)} req per server CPU second`);
    }
    // Per core as the performance anchors measure it: the server pinned to core 0, the load
    // generator to core 1, under the same connections; then the hello-world the same way. The
    // node restarts on its data dir for this (a process's affinity is set at its start).
    if (out.match_tp.length && os.cpus().length >= 2 && hasTaskset()) {
      await q.stop();
      const pinnedQ = await startQuarry({ dataDir, cpus: '0' });
      try {
        for (const m of out.match_tp) {
          const o = ops.find((x) => x.key === m.key);
          const loadPinned = () => load(o, tpClients, 0, tpDuration, { url: pinnedQ.url, cpus: '1' });
          await loadPinned();
          m.pinned_rps = (await loadPinned()).rps;
          const answer = await request(`${pinnedQ.url}${o.op.path}`, { method: o.op.method, body: fs.readFileSync(o.bodyFile), headers: { 'content-type': 'application/json' } });
          m.response_bytes = answer.body.length;
          log(`overhead: ${m.key} ×${tpClients}, node pinned to one core: ${Math.round(m.pinned_rps)} req/s (${m.response_bytes} B answers)`);
        }
      } finally {
        await pinnedQ.stop();
      }
      // The floors, pinned alike: the hello-world's `GET /`, and per op, the same search body
      // posted and an answer of the node's size sent back.
      const pinnedHello = await startHello({ cpus: '0' });
      try {
        const args = ['--url', `${pinnedHello.url}/`, '--connections', String(tpClients), '--warmup', '1', '--duration', String(tpDuration)];
        out.hello_tp.pinned_rps = (await runJsonChild(LOADGEN, args, { cpus: '1' })).rps;
        for (const m of out.match_tp) {
          const o = ops.find((x) => x.key === m.key);
          const sized = { ...o, op: { ...o.op, path: `/sized/${m.response_bytes}` } };
          m.sized_hello_pinned_rps = (await load(sized, tpClients, 1, tpDuration, { url: pinnedHello.url, cpus: '1' })).rps;
        }
      } finally {
        await pinnedHello.stop();
      }
      for (const m of out.match_tp) {
        const engineMean = out.ops.find((x) => x.key === m.key)?.engine_mean_ms_median;
        if (engineMean !== undefined) m.pinned_ceiling = 1 / (1 / m.sized_hello_pinned_rps + engineMean / 1000);
        log(`overhead: ${m.key}: fastify answering its body and size, pinned: ${Math.round(m.sized_hello_pinned_rps)} req/s; ceiling ${Math.round(m.pinned_ceiling)} req/s`);
      }
      log(`overhead: hello-world ×${tpClients}, pinned to one core: ${Math.round(out.hello_tp.pinned_rps)} req/s`);
    }
  } finally {
    await q.stop();
    await hello.stop();
    fs.rmSync(tmp, { recursive: true, force: true });
  }
  return out;
}

module.exports = { overheadBench, DEBIAN_MATCH };

if (require.main === module) {
  overheadBench({ corpusDir: path.resolve(__dirname, '..', '..', 'shared', 'corpus') }, (m) => process.stderr.write(`${m}\n`)).then((r) => console.log(JSON.stringify(r)));
}
