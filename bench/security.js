'use strict';
// What security costs a request: the same Quarry build with security disabled, and with it on
// (over plain HTTP, so TLS, which every TLS server pays alike, stays out of the comparison),
// logged in by basic auth and by an API key. Both credentials are verified once with bcrypt and
// then remembered, so this measures the steady state: the header parse, the cached-digest check
// and the permission match. Same load generator (bench/lib/loadgen.js in its own process), the
// nodes pinned to core 0 and the generator to core 1 where taskset exists, contenders alternated
// within each round.
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { startQuarry, runJsonChild, hasTaskset } = require('./lib/procs');
const { json } = require('./lib/http');
const { median } = require('./lib/report');

const LOADGEN = path.join(__dirname, 'lib', 'loadgen.js');
const PASSWORD = 'Bench-admin-password-1';
const BASIC = `Basic ${Buffer.from(`admin:${PASSWORD}`).toString('base64')}`;
const SEARCH = { query: { match: { title: 'quick fox' } } };

async function load(node, auth) {
  const headers = { 'content-type': 'application/json', ...(auth ? { authorization: auth } : {}) };
  const r = (method, p, body) => json(`${node.url}${p}`, { method, headers, body: body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body) });
  await r('PUT', '/books', { settings: { number_of_shards: 1 }, mappings: { properties: { title: { type: 'text' }, n: { type: 'long' } } } });
  const words = ['quick', 'brown', 'fox', 'lazy', 'dog', 'jumps', 'over', 'red', 'cat', 'sleeps'];
  let bulk = '';
  for (let i = 0; i < 2000; i++) {
    const title = Array.from({ length: 6 }, (_, j) => words[(i * 7 + j * 3) % words.length]).join(' ');
    bulk += `{"index":{"_id":"${i}"}}\n${JSON.stringify({ title, n: i })}\n`;
  }
  await json(`${node.url}/books/_bulk?refresh=true`, { method: 'POST', headers: { ...headers, 'content-type': 'application/x-ndjson' }, body: bulk });
}

async function securityBench({ rounds = 3, duration = 3, warmup = 1, connections = 4 } = {}, log = () => {}) {
  const pinOk = hasTaskset();
  const serverCpus = pinOk ? '0' : undefined;
  const loadCpus = pinOk ? '1' : undefined;
  const open = await startQuarry({ cpus: serverCpus });
  const secured = await startQuarry({
    cpus: serverCpus,
    settings: { 'plugins.security.disabled': 'false', 'plugins.security.ssl.http.enabled': 'false' },
    env: { OPENSEARCH_INITIAL_ADMIN_PASSWORD: PASSWORD },
    headers: { authorization: BASIC },
  });
  const bodyFile = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-sec-bench-')), 'search.json');
  fs.writeFileSync(bodyFile, JSON.stringify(SEARCH));
  const runs = [];
  try {
    await load(open);
    await load(secured, BASIC);
    const key = await json(`${secured.url}/_plugins/_security/api/apikey`, {
      method: 'PUT',
      headers: { authorization: BASIC, 'content-type': 'application/json' },
      body: JSON.stringify({ name: 'bench' }),
    });
    const contenders = [
      { name: 'disabled', url: open.url, auth: undefined },
      { name: 'basic', url: secured.url, auth: BASIC },
      { name: 'apikey', url: secured.url, auth: `ApiKey ${key.body.api_key}` },
    ];
    const ops = [
      { op: 'root', method: 'GET', path: '/', body: undefined },
      { op: 'search', method: 'POST', path: '/books/_search', body: bodyFile },
    ];
    // One request each first: the bcrypt check of a new credential (about 0.25 s at 12 rounds) is
    // a one-off, not part of the steady state measured here.
    for (const c of contenders) {
      const first = await json(`${c.url}/`, { headers: c.auth ? { authorization: c.auth } : {} });
      if (first.status !== 200) throw new Error(`security bench: ${c.name} login answered ${first.status}`);
    }
    for (const o of ops) {
      for (let r = 0; r < rounds; r++) {
        for (const c of r % 2 === 0 ? contenders : [...contenders].reverse()) {
          log(`security: ${o.op} ${c.name} round ${r + 1}/${rounds}`);
          const args = ['--url', `${c.url}${o.path}`, '--connections', String(connections), '--warmup', String(warmup), '--duration', String(duration), '--method', o.method];
          if (o.body) args.push('--body-file', o.body);
          if (c.auth) args.push('--authorization', c.auth);
          const res = await runJsonChild(LOADGEN, args, { cpus: loadCpus });
          if (res.non2xx > 0 || res.errors > 0) throw new Error(`security bench: ${c.name} ${o.op} answered ${res.non2xx} non-2xx, ${res.errors} errors`);
          runs.push({ op: o.op, contender: c.name, round: r, rps: res.rps, p50_ms: res.service_ms.p50, p99_ms: res.service_ms.p99 });
        }
      }
    }
  } finally {
    await open.stop();
    await secured.stop();
  }
  const rows = [];
  for (const op of ['root', 'search']) {
    const of = (name, f) => median(runs.filter((x) => x.op === op && x.contender === name).map(f));
    for (const name of ['disabled', 'basic', 'apikey']) {
      // each round's secured run against the disabled run of the same round
      const pairs = [];
      for (let r = 0; r < rounds; r++) {
        const at = (n) => runs.find((x) => x.op === op && x.contender === n && x.round === r);
        pairs.push(at(name).rps / at('disabled').rps);
      }
      rows.push({ op, contender: name, rps: of(name, (x) => x.rps), p50_ms: of(name, (x) => x.p50_ms), p99_ms: of(name, (x) => x.p99_ms), rps_ratio: median(pairs), round_ratios: pairs });
    }
  }
  return { pinned: pinOk, connections, rounds, duration_s: duration, rows, runs };
}

function securityMarkdown(s) {
  const lines = [
    `| op | login | req/s | ÷ disabled | p50 ms | p99 ms |`,
    `|---|---|---:|---:|---:|---:|`,
    ...s.rows.map((r) => `| ${r.op} | ${r.contender} | ${Math.round(r.rps).toLocaleString('en-US')} | ${r.rps_ratio.toFixed(3)} (${r.round_ratios.map((x) => x.toFixed(2)).join(' ')}) | ${r.p50_ms.toFixed(3)} | ${r.p99_ms.toFixed(3)} |`),
  ];
  return lines.join('\n');
}

module.exports = { securityBench, securityMarkdown };

if (require.main === module) {
  securityBench({}, (m) => console.error(m)).then((r) => {
    console.log(securityMarkdown(r));
  });
}
