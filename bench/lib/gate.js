'use strict';
// The correctness gate: a contender's answer to an operation against OpenSearch's.
// - status must be 2xx (else the op is unsupported: FAILED with the contender's error type);
// - `_count`: the count; search: hits.total (value and relation), the number of hits, and the
//   order of the hits' keys (sort values when sorted, else _score within a relative 1e-3);
// - ids may differ only inside a tie: every id the contender returns must be one OpenSearch
//   returns with the same key, looked up in a wider window (`refWide`: the same query with the
//   page widened by 50 hits on each side), so ties cut by the page edge are allowed; a tie wider
//   than that window (thousands of equal scores or sort values) is checked through `refVerified`:
//   OpenSearch's answer to the same query restricted to the contender's ids (`restrictToIds`);
// - aggregations must be equal (numbers within 1e-6 relative).
// Returns { ok, reason }.

function keyOf(hit) {
  return hit.sort !== undefined ? { sort: JSON.stringify(hit.sort) } : { score: hit._score };
}
function sameKey(a, b) {
  if (a.sort !== undefined || b.sort !== undefined) return a.sort === b.sort;
  if (a.score == null || b.score == null) return a.score == b.score;
  return Math.abs(a.score - b.score) <= 1e-3 * Math.max(1, Math.abs(a.score), Math.abs(b.score));
}

function deepEqual(a, b, path = '') {
  if (typeof a === 'number' && typeof b === 'number') {
    return Math.abs(a - b) <= 1e-6 * Math.max(1, Math.abs(a), Math.abs(b)) ? null : `${path}: ${b} != ${a}`;
  }
  if (a === null || b === null || typeof a !== 'object' || typeof b !== 'object') return a === b ? null : `${path}: ${JSON.stringify(b)} != ${JSON.stringify(a)}`;
  if (Array.isArray(a) !== Array.isArray(b)) return `${path}: array vs object`;
  const keys = new Set([...Object.keys(a), ...Object.keys(b)]);
  for (const k of keys) {
    const r = deepEqual(a[k], b[k], `${path}.${k}`);
    if (r) return r;
  }
  return null;
}

function errorOf(res) {
  const e = res.body?.error;
  if (!e) return `status ${res.status}`;
  if (typeof e === 'string') return `${res.status} ${e}`.slice(0, 200);
  const rc = e.root_cause?.[0] ?? e;
  return `${res.status} ${rc.type}: ${String(rc.reason ?? '').slice(0, 160)}`;
}

function gate(ref, refWide, got, refVerified) {
  if (!got || got.status < 200 || got.status > 299) return { ok: false, unsupported: true, reason: `unsupported: ${got ? errorOf(got) : 'no answer'}` };
  if (!ref || ref.status < 200 || ref.status > 299) return { ok: false, reason: `OpenSearch itself failed: ${ref ? errorOf(ref) : 'no answer'}` };
  const r = ref.body;
  const g = got.body;
  if (r.count !== undefined) return r.count === g.count ? { ok: true } : { ok: false, reason: `count ${g.count} != ${r.count}` };
  const rt = r.hits.total;
  const gt = g.hits?.total;
  if (JSON.stringify(rt) !== JSON.stringify(gt)) return { ok: false, reason: `hits.total ${JSON.stringify(gt)} != ${JSON.stringify(rt)}` };
  const rh = r.hits.hits;
  const gh = g.hits.hits;
  if (rh.length !== gh.length) return { ok: false, reason: `${gh.length} hits != ${rh.length}` };
  const wide = [...(refWide?.body?.hits?.hits ?? rh), ...(refVerified?.body?.hits?.hits ?? [])].map((h) => ({ id: h._id, key: keyOf(h) }));
  const seen = new Set();
  for (let i = 0; i < rh.length; i++) {
    const rk = keyOf(rh[i]);
    const gk = keyOf(gh[i]);
    if (!sameKey(rk, gk)) return { ok: false, reason: `hit ${i}: key ${JSON.stringify(gk)} != ${JSON.stringify(rk)} (id ${gh[i]._id} vs ${rh[i]._id})` };
    if (seen.has(gh[i]._id)) return { ok: false, reason: `hit ${i}: id ${gh[i]._id} twice` };
    seen.add(gh[i]._id);
    if (gh[i]._id !== rh[i]._id && !wide.some((w) => w.id === gh[i]._id && sameKey(w.key, gk))) {
      return { ok: false, reason: `hit ${i}: id ${gh[i]._id} is not among OpenSearch's hits with the same key (${rh[i]._id})` };
    }
  }
  if (r.aggregations !== undefined || g.aggregations !== undefined) {
    const d = deepEqual(r.aggregations, g.aggregations, 'aggregations');
    if (d) return { ok: false, reason: d.slice(0, 200) };
  }
  return { ok: true };
}

/** The gate's wider window for a search body: the page widened by `pad` hits on both sides. */
function widen(body, pad = 50) {
  const from = body.from ?? 0;
  const size = body.size ?? 10;
  if (size === 0) return null;
  const f = Math.max(0, from - pad);
  let s = size + (from - f) + pad;
  if (f + s > 10000) s = 10000 - f;
  return { ...body, from: f, size: s };
}

/**
 * The same search restricted to the given ids, all of them on one page: each comes back with the
 * key (score or sort values) OpenSearch gives it under the original query. The ids filter does not
 * score, and search_after stays so a document before the cursor is not accepted.
 */
function restrictToIds(body, ids) {
  const { from: _from, size: _size, track_total_hits: _t, aggs: _a, aggregations: _b, ...rest } = body;
  const query = { bool: { must: [body.query ?? { match_all: {} }], filter: [{ ids: { values: ids } }] } };
  return { ...rest, query, size: ids.length, track_total_hits: false };
}

module.exports = { gate, widen, restrictToIds };
