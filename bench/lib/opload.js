'use strict';
// One process per operation: the closed-loop phase (1 connection: service time) and then the
// throughput phase (N connections) of bench/lib/loadgen.js, back to back; prints one JSON line
// { latency, throughput }. Saves a process start per op over two loadgen runs.
//   node bench/lib/opload.js --url U --method POST --body-file F --warmup 0.2 --duration 0.8
//        --tp-clients 4 --tp-warmup 0.1 --tp-duration 0.8
const fs = require('node:fs');
const { run } = require('./loadgen');

const o = {};
const a = process.argv.slice(2);
for (let i = 0; i < a.length; i += 2) o[a[i].replace(/^--/, '')] = a[i + 1];
const body = o['body-file'] ? fs.readFileSync(o['body-file']) : undefined;
(async () => {
  const base = { url: o.url, method: o.method ?? 'GET', body };
  // Slow ops still get 3 closed-loop samples (and one response per throughput connection),
  // within 15 s each phase.
  const latency = await run({ ...base, connections: 1, warmup: Number(o.warmup ?? 0.2), duration: Number(o.duration ?? 1), minRequests: 3, maxSeconds: 15 });
  const clients = Number(o['tp-clients'] ?? 4);
  const throughput = clients > 0
    ? await run({ ...base, connections: clients, warmup: Number(o['tp-warmup'] ?? 0.1), duration: Number(o['tp-duration'] ?? 1), minRequests: clients, maxSeconds: 15 })
    : { ...latency, connections: 1 }; // no throughput phase: the closed loop's figures stand in
  process.stdout.write(JSON.stringify({ latency, throughput }) + '\n');
})().catch((e) => {
  console.error(e);
  process.exit(1);
});
