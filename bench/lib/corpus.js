'use strict';
// Reads a gzipped NDJSON corpus and builds `_bulk` bodies exactly as crates/engine/benches/ingest.rs
// does: for each line `{"index":{"_id":<id>}}\n<line>\n`, `batch` docs per body. Built before
// any clock starts, so the load generator only sends bytes.
const fs = require('node:fs');
const path = require('node:path');
const zlib = require('node:zlib');

const CORPORA = ['debian-packages', 'npm-packages'];

function mappingPath(corpus) {
  return path.join(__dirname, '..', 'workloads', corpus, 'index.json');
}

function buildBodies(corpusDir, corpus, { batch = 5000, limit = Infinity } = {}) {
  const file = path.resolve(corpusDir, `${corpus}.ndjson.gz`);
  const raw = zlib.gunzipSync(fs.readFileSync(file));
  const bodies = [];
  let parts = [];
  let inCur = 0;
  let docs = 0;
  let rawBytes = 0;
  let start = 0;
  while (start < raw.length && docs < limit) {
    let end = raw.indexOf(10, start);
    if (end === -1) end = raw.length;
    if (end > start) {
      const line = raw.subarray(start, end);
      const id = JSON.parse(line.toString('utf8')).id;
      parts.push(Buffer.from(`{"index":{"_id":${JSON.stringify(id)}}}\n`), line, NL);
      rawBytes += line.length + 1;
      docs++;
      if (++inCur === batch) {
        bodies.push(Buffer.concat(parts));
        parts = [];
        inCur = 0;
      }
    }
    start = end + 1;
  }
  if (inCur > 0) bodies.push(Buffer.concat(parts));
  const bodyBytes = bodies.reduce((n, b) => n + b.length, 0);
  return { corpus, file, bodies, docs, rawBytes, bodyBytes };
}
const NL = Buffer.from('\n');

module.exports = { CORPORA, buildBodies, mappingPath };
