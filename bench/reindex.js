'use strict';
// Long-running index operations, Quarry vs a fresh OpenSearch 2.19 in the same run: the npm
// corpus bulk-loaded into both (same mapping, one shard), then, per round, `_reindex` of every
// document into a new index and `_delete_by_query` of every document of that copy, each waited
// for (`wait_for_completion=true`, `refresh=true`), the two servers taking turns. Reported as docs/s
// and Quarry ÷ OpenSearch per operation, the median over rounds.
//
//   node bench/reindex.js [--corpus-dir ../shared/corpus] [--corpus npm-packages] [--rounds 3] [--limit N]
const path = require('node:path');
const { buildBodies } = require('./lib/corpus');
const { startQuarry, ROOT } = require('./lib/procs');
const { startOpenSearch } = require('./lib/opensearch');
const { httpIngest } = require('./ingest');
const { request } = require('./lib/http');
const { median } = require('./lib/report');

async function post(url, p, body) {
  const r = await request(`${url}${p}`, { method: 'POST', body: body === undefined ? undefined : Buffer.from(JSON.stringify(body)), headers: { 'content-type': 'application/json' } });
  const json = JSON.parse(r.body.toString('utf8'));
  if (r.status !== 200) throw new Error(`${p}: ${r.status} ${r.body}`);
  return json;
}

async function del(url, p) {
  await request(`${url}${p}`, { method: 'DELETE' });
}

async function timed(fn) {
  const t = process.hrtime.bigint();
  const out = await fn();
  return { ms: Number(process.hrtime.bigint() - t) / 1e6, out };
}

async function reindexBench({ corpusDir, corpus = 'npm-packages', rounds = 3, limit } = {}, log = () => {}) {
  const built = buildBodies(corpusDir, corpus, { batch: 5000, limit: limit ?? Infinity });
  log(`reindex: ${built.docs} ${corpus} docs; starting Quarry and OpenSearch …`);
  const quarry = await startQuarry();
  const opensearch = await startOpenSearch();
  const servers = [
    { name: 'quarry', url: quarry.url, stop: () => quarry.stop() },
    { name: 'opensearch', url: opensearch.url, stop: () => opensearch.stop() },
  ];
  const runs = [];
  try {
    for (const s of servers) {
      await httpIngest(s.url, built, { clients: 2, index: 'src' });
      await post(s.url, '/src/_refresh');
      await post(s.url, '/src/_forcemerge?max_num_segments=1');
    }
    for (let r = 0; r < rounds; r++) {
      for (const s of r % 2 === 0 ? servers : [...servers].reverse()) {
        log(`reindex: ${s.name} round ${r + 1}/${rounds}`);
        await del(s.url, '/copy');
        const copy = await timed(() => post(s.url, '/_reindex?refresh=true', { source: { index: 'src', size: 1000 }, dest: { index: 'copy' } }));
        if (copy.out.created !== built.docs) throw new Error(`${s.name} reindex created ${copy.out.created} of ${built.docs}`);
        const gone = await timed(() => post(s.url, '/copy/_delete_by_query?refresh=true&scroll_size=1000', { query: { match_all: {} } }));
        if (gone.out.deleted !== built.docs) throw new Error(`${s.name} delete_by_query deleted ${gone.out.deleted} of ${built.docs}`);
        runs.push({ server: s.name, round: r, reindex_ms: copy.ms, delete_by_query_ms: gone.ms });
      }
    }
  } finally {
    for (const s of servers) await s.stop();
  }
  const rows = ['reindex', 'delete_by_query'].map((op) => {
    const ms = (name) => median(runs.filter((x) => x.server === name).map((x) => x[`${op}_ms`]));
    return { op, quarry_docs_per_s: built.docs / (ms('quarry') / 1000), opensearch_docs_per_s: built.docs / (ms('opensearch') / 1000), ratio: ms('opensearch') / ms('quarry') };
  });
  return { corpus, docs: built.docs, rounds, rows, runs };
}

function reindexMarkdown(r) {
  return [
    `| op | Quarry docs/s | OpenSearch docs/s | Quarry ÷ OpenSearch |`,
    `|---|---:|---:|---:|`,
    ...r.rows.map((x) => `| ${x.op} | ${Math.round(x.quarry_docs_per_s).toLocaleString('en-US')} | ${Math.round(x.opensearch_docs_per_s).toLocaleString('en-US')} | ${x.ratio.toFixed(2)}× |`),
  ].join('\n');
}

module.exports = { reindexBench, reindexMarkdown };

if (require.main === module) {
  const args = process.argv.slice(2);
  const o = {};
  for (let i = 0; i < args.length; i += 2) o[args[i].replace(/^--/, '')] = args[i + 1];
  reindexBench(
    {
      corpusDir: path.resolve(o['corpus-dir'] ?? path.join(ROOT, '..', 'shared', 'corpus')),
      corpus: o.corpus ?? 'npm-packages',
      rounds: Number(o.rounds ?? 3),
      limit: o.limit === undefined ? undefined : Number(o.limit),
    },
    (m) => console.error(m),
  ).then((r) => console.log(reindexMarkdown(r)));
}
