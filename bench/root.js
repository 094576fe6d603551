'use strict';
// `GET /` throughput: Quarry vs a bare fastify hello-world, same Node, same fastify, same load
// generator (bench/lib/loadgen.js in its own process), measured alternately in the same run.
// With taskset the server is pinned to core 0 and the load generator to core 1.
const path = require('node:path');
const { startQuarry, startHello, runJsonChild, hasTaskset } = require('./lib/procs');
const { median } = require('./lib/report');

const LOADGEN = path.join(__dirname, 'lib', 'loadgen.js');

async function rootBench({ rounds = 2, connections = 50, pipelining = 1, warmup = 1, duration = 5, pin = true } = {}) {
  const pinOk = pin && hasTaskset();
  const serverCpus = pinOk ? '0' : undefined;
  const loadCpus = pinOk ? '1' : undefined;
  const servers = [await startHello({ cpus: serverCpus }), await startQuarry({ cpus: serverCpus })];
  const runs = [];
  try {
    for (let r = 0; r < rounds; r++) {
      for (const s of servers) {
        const res = await runJsonChild(
          LOADGEN,
          ['--url', `${s.url}/`, '--connections', String(connections), '--pipelining', String(pipelining), '--warmup', String(warmup), '--duration', String(duration)],
          { cpus: loadCpus },
        );
        runs.push({ server: s.name, round: r, ...res });
      }
    }
  } finally {
    for (const s of servers) await s.stop();
  }
  const best = (name) => Math.max(...runs.filter((x) => x.server === name).map((x) => x.rps));
  const rps = (name) => median(runs.filter((x) => x.server === name).map((x) => x.rps));
  const pairs = [];
  for (let r = 0; r < rounds; r++) {
    const at = (name) => runs.find((x) => x.server === name && x.round === r).rps;
    pairs.push(at('quarry') / at('fastify-hello'));
  }
  const p99 = (name) => Math.max(...runs.filter((x) => x.server === name).map((x) => x.service_ms.p99));
  return {
    pinned: pinOk,
    connections,
    pipelining,
    duration_s: duration,
    rounds,
    quarry_rps: rps('quarry'),
    fastify_rps: rps('fastify-hello'),
    quarry_rps_best: best('quarry'),
    fastify_rps_best: best('fastify-hello'),
    quarry_p99_ms: p99('quarry'),
    fastify_p99_ms: p99('fastify-hello'),
    // Each round's Quarry run against the fastify run just before it: the host drifts by up to
    // 2x over minutes, so pairs taken seconds apart compare like with like; their median is the
    // ratio.
    round_ratios: pairs,
    ratio: median(pairs),
    runs,
  };
}

module.exports = { rootBench };

if (require.main === module) {
  rootBench().then((r) => {
    const { runs, ...summary } = r;
    console.log(JSON.stringify(summary, null, 2));
  });
}
