'use strict';
// `GET /` latency while `_bulk` ingest runs: a fresh Quarry; first a paced probe alone (the
// baseline), then the same probe while this process bulk-indexes the Debian corpus with
// `clients` connections, pass after pass into new indices, until the probe ends. The probe runs
// in its own process (1 connection, `rate` req/s) and reports service time and latency from
// each request's scheduled send time. The node times each `GET /` inside itself too
// (lib/server-timing.js), which leaves out the client's and the kernel's part of the round trip.
const path = require('node:path');
const { startQuarry, runJsonChild } = require('./lib/procs');
const { buildBodies } = require('./lib/corpus');
const { httpIngest } = require('./ingest');
const { percentiles } = require('./lib/loadgen');

const LOADGEN = path.join(__dirname, 'lib', 'loadgen.js');

async function latencyBench({ corpusDir, corpus = 'debian-packages', batch = 5000, clients = 2, rate = 200, duration = 10, built } = {}) {
  built = built ?? buildBodies(corpusDir, corpus, { batch });
  const q = await startQuarry({ timed: { path: '/' } });
  // The in-server times of the probe's measured requests (its warm-up's come first).
  const inServer = async (r) => percentiles((await q.takeTimings()).slice(r.total_requests - r.requests));
  const probe = (d) =>
    runJsonChild(LOADGEN, ['--url', `${q.url}/`, '--connections', '1', '--rate', String(rate), '--warmup', '1', '--duration', String(d)]);
  try {
    await q.takeTimings();
    const idle = await probe(Math.min(5, duration));
    const idleIn = await inServer(idle);
    let stop = false;
    const passes = [];
    const ingestLoop = (async () => {
      // Wait for the probe's warm-up, then keep ingesting until it reports.
      for (let pass = 0; !stop; pass++) {
        passes.push(await httpIngest(q.url, built, { clients, index: `${built.corpus}-${pass}` }));
      }
    })();
    const loaded = await probe(duration);
    const loadedIn = await inServer(loaded);
    stop = true;
    await ingestLoop;
    const docs = passes.reduce((n, p) => n + p.docs, 0);
    const secs = passes.reduce((n, p) => n + p.total_seconds, 0);
    return {
      rate,
      duration_s: duration,
      idle: { service_ms: idle.service_ms, scheduled_ms: idle.scheduled_ms, in_server_ms: idleIn, non2xx: idle.non2xx, errors: idle.errors },
      under_ingest: { service_ms: loaded.service_ms, scheduled_ms: loaded.scheduled_ms, in_server_ms: loadedIn, non2xx: loaded.non2xx, errors: loaded.errors },
      ingest: { passes: passes.length, docs, docs_per_s: docs / secs, failed_bulks: passes.reduce((n, p) => n + p.failed_bulks, 0) },
      p99_ms: loaded.service_ms.p99,
      p99_scheduled_ms: loaded.scheduled_ms.p99,
    };
  } finally {
    await q.stop();
  }
}

module.exports = { latencyBench };

if (require.main === module) {
  latencyBench({ corpusDir: path.resolve(__dirname, '..', '..', 'shared', 'corpus') }).then((r) => console.log(JSON.stringify(r, null, 2)));
}
