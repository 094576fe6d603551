'use strict';
// The documents files OpenSearch Benchmark wants, made from ../shared/corpus/<corpus>.ndjson.gz:
// uncompressed NDJSON with an action-and-meta-data line before every doc
// (`{"index":{"_index":<index>,"_id":<doc.id>}}`), so that both OSB and bench/workload.js index
// each doc under its own `id` and the correctness gate can compare ids. Written once into
// bench/.cache/corpus/ (gitignored) and reused while the source is unchanged.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const CACHE = path.join(__dirname, '..', '.cache', 'corpus');

/** Returns { file, docs, bytes } for the workload corpus `doc` ({source-file, target-index, ...}). */
function ensureDocuments(corpusDir, corpus, index, fileName) {
  const src = path.resolve(corpusDir, `${corpus}.ndjson.gz`);
  fs.mkdirSync(CACHE, { recursive: true });
  const file = path.join(CACHE, fileName);
  const stamp = `${file}.meta.json`;
  const srcStat = fs.statSync(src);
  try {
    const meta = JSON.parse(fs.readFileSync(stamp, 'utf8'));
    if (meta.src_size === srcStat.size && meta.src_mtime === srcStat.mtimeMs && meta.index === index && fs.statSync(file).size === meta.bytes) {
      return { file, docs: meta.docs, bytes: meta.bytes };
    }
  } catch {}
  const raw = zlib.gunzipSync(fs.readFileSync(src));
  const parts = [];
  let docs = 0;
  let start = 0;
  const idx = JSON.stringify(index);
  while (start < raw.length) {
    let end = raw.indexOf(10, start);
    if (end === -1) end = raw.length;
    if (end > start) {
      const line = raw.subarray(start, end);
      const id = JSON.parse(line.toString('utf8')).id;
      parts.push(Buffer.from(`{"index":{"_index":${idx},"_id":${JSON.stringify(String(id))}}}\n`), line, NL);
      docs++;
    }
    start = end + 1;
  }
  const out = Buffer.concat(parts);
  fs.writeFileSync(file + '.tmp', out);
  fs.renameSync(file + '.tmp', file);
  fs.writeFileSync(stamp, JSON.stringify({ src_size: srcStat.size, src_mtime: srcStat.mtimeMs, index, docs, bytes: out.length }) + '\n');
  return { file, docs, bytes: out.length };
}
const NL = Buffer.from('\n');

/**
 * Cuts a documents file (action line + doc line per doc) into `_bulk` bodies of `bulkSize` docs,
 * at most `limit` docs. rawBytes counts the doc lines only (the corpus' own NDJSON bytes).
 */
function bulkBodies(file, { bulkSize = 5000, limit = Infinity } = {}) {
  const buf = fs.readFileSync(file);
  const bodies = [];
  let docs = 0;
  let rawBytes = 0;
  let start = 0;
  let bodyStart = 0;
  let inCur = 0;
  while (start < buf.length && docs < limit) {
    const a = buf.indexOf(10, start);
    const d = buf.indexOf(10, a + 1);
    const end = d === -1 ? buf.length : d + 1;
    rawBytes += end - (a + 1);
    docs++;
    start = end;
    if (++inCur === bulkSize) {
      bodies.push(buf.subarray(bodyStart, start));
      bodyStart = start;
      inCur = 0;
    }
  }
  if (inCur > 0) bodies.push(buf.subarray(bodyStart, start));
  return { bodies, docs, rawBytes, bodyBytes: start };
}

/** Docs (parsed) of a documents file, for the in-process engines. */
function* docsOf(file, limit = Infinity) {
  const buf = fs.readFileSync(file);
  let start = 0;
  let n = 0;
  while (start < buf.length && n < limit) {
    const a = buf.indexOf(10, start);
    let d = buf.indexOf(10, a + 1);
    if (d === -1) d = buf.length;
    yield JSON.parse(buf.toString('utf8', a + 1, d));
    n++;
    start = d + 1;
  }
}

module.exports = { CACHE, ensureDocuments, bulkBodies, docsOf };
