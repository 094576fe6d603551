'use strict';
// `_bulk` ingest over HTTP into a fresh Quarry (release addon, fresh data dir): the corpus is
// read and cut into bulk bodies first, then `clients` keep-alive connections send them as fast
// as the server answers; then `_refresh` and `_count` (must equal the doc count).
//
//   node bench/ingest.js [--corpus-dir ../shared/corpus] [--corpus debian-packages,npm-packages]
//                        [--batch 5000] [--clients 2] [--url http://host:port] [--json]
// Without --url a fresh node is started (and stopped) per corpus.
const fs = require('node:fs');
const path = require('node:path');
const { buildBodies, mappingPath, CORPORA } = require('./lib/corpus');
const { startQuarry } = require('./lib/procs');
const { agent, request, json } = require('./lib/http');
const { percentiles } = require('./lib/loadgen');

const ERRORS_TRUE = Buffer.from('"errors":true');

/** Creates `index` with the corpus mapping, then sends every body with `clients` connections. */
async function httpIngest(url, built, { clients = 2, index = built.corpus, mapping = true } = {}) {
  const a = agent(clients);
  const headers = { 'content-type': 'application/json' };
  if (mapping) {
    const r = await request(`${url}/${index}`, { method: 'PUT', body: fs.readFileSync(mappingPath(built.corpus)), headers, agent: a });
    if (r.status !== 200) throw new Error(`create ${index}: ${r.status} ${r.body}`);
  }
  const nd = { 'content-type': 'application/x-ndjson' };
  let next = 0;
  let failed = 0;
  const lat = [];
  const t0 = process.hrtime.bigint();
  await Promise.all(
    Array.from({ length: clients }, async () => {
      for (;;) {
        const i = next++;
        if (i >= built.bodies.length) return;
        const t = process.hrtime.bigint();
        const r = await request(`${url}/${index}/_bulk`, { method: 'POST', body: built.bodies[i], headers: nd, agent: a });
        lat.push(Number(process.hrtime.bigint() - t) / 1e6);
        if (r.status !== 200 || r.body.indexOf(ERRORS_TRUE) !== -1) {
          failed++;
          if (failed === 1) process.stderr.write(`bulk failed: ${r.status} ${r.body.subarray(0, 600)}\n`);
        }
      }
    }),
  );
  const bulkS = Number(process.hrtime.bigint() - t0) / 1e9;
  const tr = process.hrtime.bigint();
  await request(`${url}/${index}/_refresh`, { method: 'POST', agent: a });
  const refreshMs = Number(process.hrtime.bigint() - tr) / 1e6;
  const totalS = Number(process.hrtime.bigint() - t0) / 1e9;
  const count = (await json(`${url}/${index}/_count`, { agent: a })).body?.count;
  a.destroy();
  const p = percentiles(lat);
  return {
    side: 'http',
    corpus: built.corpus,
    docs: built.docs,
    count_after_refresh: count,
    bulk_requests: built.bodies.length,
    clients,
    raw_bytes: built.rawBytes,
    body_bytes: built.bodyBytes,
    bulk_seconds: bulkS,
    refresh_ms: refreshMs,
    total_seconds: totalS,
    docs_per_s: built.docs / bulkS,
    docs_per_s_incl_refresh: built.docs / totalS,
    mb_per_s: built.rawBytes / 1e6 / bulkS,
    bulk_ms_p50: p.p50,
    bulk_ms_p90: p.p90,
    bulk_ms_max: p.max,
    failed_bulks: failed,
  };
}

function dirSize(p) {
  let n = 0;
  for (const e of fs.readdirSync(p, { withFileTypes: true })) {
    const f = path.join(p, e.name);
    n += e.isDirectory() ? dirSize(f) : fs.statSync(f).size;
  }
  return n;
}

/** Fresh node, ingest one corpus, stop. Adds start-up time, index size and the server's CPU time. */
async function freshServerIngest(built, { clients, cpus } = {}) {
  const q = await startQuarry({ cpus });
  try {
    const cpu0 = procCpuSeconds(q.pid);
    const r = await httpIngest(q.url, built, { clients });
    r.server_cpu_seconds = procCpuSeconds(q.pid) - cpu0;
    // Comparable with the engine bench's `cpu_us_per_doc` (its CPU up to the end of the refresh):
    // steadier than docs/s on a shared machine.
    r.server_cpu_us_per_doc = (r.server_cpu_seconds * 1e6) / r.docs;
    r.server_startup_ms = q.startupMs;
    r.server_rss_mb = procRssMb(q.pid);
    r.index_bytes = dirSize(q.dataDir);
    return r;
  } finally {
    await q.stop();
  }
}

// /proc/<pid>/stat utime+stime of the server (its own threads included), Linux only.
function procCpuSeconds(pid) {
  try {
    const s = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const f = s.slice(s.lastIndexOf(')') + 2).split(' ');
    return (Number(f[11]) + Number(f[12])) / 100;
  } catch {
    return NaN;
  }
}
function procRssMb(pid) {
  try {
    const m = /VmHWM:\s+(\d+) kB/.exec(fs.readFileSync(`/proc/${pid}/status`, 'utf8'));
    return m ? Number(m[1]) / 1024 : NaN;
  } catch {
    return NaN;
  }
}

module.exports = { httpIngest, freshServerIngest, procCpuSeconds };

if (require.main === module) {
  const o = { 'corpus-dir': path.resolve(__dirname, '..', '..', 'shared', 'corpus'), corpus: CORPORA.join(','), batch: '5000', clients: '2' };
  const argv = process.argv.slice(2);
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'json') o.json = true;
    else o[k] = argv[++i];
  }
  (async () => {
    for (const corpus of o.corpus.split(',')) {
      const built = buildBodies(o['corpus-dir'], corpus, { batch: Number(o.batch) });
      const r = o.url ? await httpIngest(o.url, built, { clients: Number(o.clients) }) : await freshServerIngest(built, { clients: Number(o.clients) });
      if (o.json) process.stdout.write(JSON.stringify(r) + '\n');
      else
        console.log(
          `http ${corpus}: ${r.docs} docs in ${r.bulk_seconds.toFixed(2)} s = ${Math.round(r.docs_per_s)} docs/s, ` +
            `${r.mb_per_s.toFixed(1)} MB/s` +
            (r.server_cpu_us_per_doc ? `, server CPU ${r.server_cpu_us_per_doc.toFixed(1)} us/doc` : '') +
            ` (refresh ${r.refresh_ms.toFixed(0)} ms, count ${r.count_after_refresh}, failed bulks ${r.failed_bulks})`,
        );
    }
  })().catch((e) => {
    console.error(e);
    process.exit(1);
  });
}
