'use strict';
// minisearch and flexsearch in-process, on a workload's text operations: what a Node user would
// embed instead of a search server. Run as a child (own heap, own RSS) per engine and workload:
//   node bench/jsengines.js --engine minisearch|flexsearch --file <documents file> --ops <ops.json>
//        [--limit N] [--warmup 0.2] [--duration 1]
// ops.json: [{name, body}] with OSB search bodies; match (OR/AND) and multi_match (with field
// boosts) are translated; others (match_phrase, query_string, bool filters) have no equivalent
// and are reported as not applicable. Top 10 per query. Prints one JSON line.
// Neither engine is OpenSearch's BM25 with its analyzers: their hits are not gated.
const { docsOf } = require('./lib/osbdocs');
const { percentiles } = require('./lib/loadgen');

function translate(body) {
  const q = body.query ?? {};
  if ((body.from ?? 0) > 0 || body.sort || body.aggs) return null;
  if (q.match) {
    const [field, v] = Object.entries(q.match)[0];
    const text = typeof v === 'string' ? v : v.query;
    const and = typeof v === 'object' && String(v.operator).toLowerCase() === 'and';
    return { text, fields: [field], boost: {}, and };
  }
  if (q.multi_match) {
    const fields = [];
    const boost = {};
    for (const f of q.multi_match.fields) {
      const [name, b] = f.split('^');
      fields.push(name);
      if (b) boost[name] = Number(b);
    }
    return { text: q.multi_match.query, fields, boost, and: String(q.multi_match.operator).toLowerCase() === 'and' };
  }
  return null;
}

function build(engine, fields, docs) {
  if (engine === 'minisearch') {
    const MiniSearch = require('minisearch');
    const m = new MiniSearch({ fields, idField: 'id', storeFields: [] });
    m.addAll(docs);
    return (t) => m.search(t.text, { fields: t.fields, boost: t.boost, combineWith: t.and ? 'AND' : 'OR' }).slice(0, 10);
  }
  const { Document } = require('flexsearch');
  const d = new Document({ document: { id: 'id', index: fields }, tokenize: 'strict' });
  for (const doc of docs) d.add(doc);
  return (t) => d.search(t.text, { index: t.fields, limit: 10, suggest: !t.and, merge: true });
}

function main() {
  const o = { warmup: '0.2', duration: '1', limit: 'Infinity' };
  const a = process.argv.slice(2);
  for (let i = 0; i < a.length; i += 2) o[a[i].replace(/^--/, '')] = a[i + 1];
  const ops = JSON.parse(require('node:fs').readFileSync(o.ops, 'utf8'));
  const plans = ops.map((op) => ({ op, t: translate(op.body) }));
  const fields = [...new Set(plans.flatMap((p) => (p.t ? p.t.fields : [])))];
  const docs = [];
  let textBytes = 0;
  for (const d of docsOf(o.file, Number(o.limit))) {
    const keep = { id: d.id };
    for (const f of fields) if (d[f] !== undefined) {
      keep[f] = d[f];
      textBytes += Buffer.byteLength(String(d[f]));
    }
    docs.push(keep);
  }
  global.gc?.();
  const heap0 = process.memoryUsage().heapUsed;
  const t0 = process.hrtime.bigint();
  const search = build(o.engine, fields, docs);
  const buildS = Number(process.hrtime.bigint() - t0) / 1e9;
  global.gc?.();
  const mem = process.memoryUsage();
  const out = {
    engine: o.engine,
    version: JSON.parse(require('node:fs').readFileSync(require('node:path').join(__dirname, '..', 'node_modules', o.engine, 'package.json'), 'utf8')).version,
    docs: docs.length,
    fields,
    text_mb: textBytes / 1e6,
    build_s: buildS,
    docs_per_s: docs.length / buildS,
    heap_mb: (mem.heapUsed - heap0) / 2 ** 20,
    rss_mb: mem.rss / 2 ** 20,
    ops: {},
  };
  for (const { op, t } of plans) {
    if (!t) {
      out.ops[op.name] = { applicable: false };
      continue;
    }
    const now = () => Number(process.hrtime.bigint()) / 1e6;
    let hits = 0;
    const w0 = now();
    while (now() - w0 < Number(o.warmup) * 1000) hits = search(t).length;
    const lat = [];
    const m0 = now();
    while (now() - m0 < Number(o.duration) * 1000) {
      const s = now();
      hits = search(t).length;
      lat.push(now() - s);
    }
    const p = percentiles(lat);
    out.ops[op.name] = { applicable: true, hits, service_ms: p, rps: lat.length / ((now() - m0) / 1000) };
  }
  process.stdout.write(JSON.stringify(out) + '\n');
}

main();
