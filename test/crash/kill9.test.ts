// Crash test (DESIGN.md §4, issue 2 "Durability"): a real Quarry process takes concurrent `_bulk`
// writes from several clients and is `kill -9`ed at random moments, then restarted on the same
// data directory. Every acknowledged write must survive at its latest acknowledged version,
// `_seq_no` and `_source`; acknowledged deletes stay deleted. Writes without a response are
// unknown: they may or may not be there, but if one is there it is one we actually sent and it is
// not older than the acknowledged state. One round also appends garbage to the newest translog
// generation of every shard (a torn tail), after which the node must still start and keep
// everything acknowledged — including what is written after that recovery.
import { appendFileSync, existsSync, readdirSync } from 'node:fs';
import { join } from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, createQuarry, type QuarryServer } from '../support/server';

// ---------------------------------------------------------------------------------------------
// Reproducible randomness (the seed is printed when the test fails).

const SEED = Number(process.env.QUARRY_CRASH_SEED ?? Math.floor(Math.random() * 2 ** 31));

function mulberry32(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}
const rand = mulberry32(SEED);
const randInt = (lo: number, hi: number): number => lo + Math.floor(rand() * (hi - lo + 1));
const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rand() * xs.length)] as T;
const sleep = (ms: number): Promise<void> => new Promise((ok) => setTimeout(ok, ms));

// ---------------------------------------------------------------------------------------------
// The workload.

/** Two indices: three shards with the default 1s scheduled refresh (commits and translog trims
 * race with the writes), and one shard that never refreshes on its own (everything comes back
 * from translog replay). */
const INDICES = {
  crash_multi: { settings: { number_of_shards: 3, number_of_replicas: 0 } },
  crash_replay: { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' } },
} as const;
type IndexName = keyof typeof INDICES;
const INDEX_NAMES = Object.keys(INDICES) as IndexName[];
const IDS_PER_INDEX = 200;
const WRITERS = 4;
const ROUNDS = 6;
const TORN_TAIL_ROUND = 4; // after this round's kill, garbage goes onto every newest translog file

interface DocState {
  /** `_source` as JSON text exactly as sent, or null when deleted. */
  source: string | null;
  version: number;
  seqNo: number;
  /** The round the state was established in; versions only compare within one process life for
   * deletes (a tombstone lives in memory), so a state from an earlier round is a baseline. */
  round: number;
}

interface Attempt {
  op: 'index' | 'create' | 'delete';
  source: string | null;
}

class Model {
  /** Latest acknowledged (or, after a verification, observed) state per index/id. */
  readonly state = new Map<string, DocState>();
  /** Writes sent since the last verification that got no definite answer. */
  readonly unknown = new Map<string, Attempt[]>();
  acked = 0;
  unknownCount = 0;
  conflicts = 0;
  readonly problems: string[] = [];

  static key(index: string, id: string): string {
    return `${index}/${id}`;
  }

  ack(index: string, id: string, next: DocState): void {
    const k = Model.key(index, id);
    const prev = this.state.get(k);
    this.acked += 1;
    if (prev === undefined || prev.round < next.round) {
      if (prev !== undefined && next.seqNo <= prev.seqNo) {
        this.problems.push(`${k}: seq_no went backwards across a restart: acknowledged ${next.seqNo} after ${prev.seqNo}`);
      }
      this.state.set(k, next);
      return;
    }
    // Same process life: versions and seq_nos of one id strictly increase with the order the
    // shard applied the writes, whatever order the responses arrive in.
    if (next.version === prev.version) {
      this.problems.push(`${k}: two acknowledged writes got the same version ${next.version}`);
    } else if (next.version > prev.version) {
      if (next.seqNo <= prev.seqNo) {
        this.problems.push(`${k}: version ${next.version} has seq_no ${next.seqNo} <= ${prev.seqNo} of version ${prev.version}`);
      }
      this.state.set(k, next);
    } else if (next.seqNo >= prev.seqNo) {
      this.problems.push(`${k}: version ${next.version} has seq_no ${next.seqNo} >= ${prev.seqNo} of version ${prev.version}`);
    }
  }

  pending(index: string, id: string, a: Attempt): void {
    const k = Model.key(index, id);
    const list = this.unknown.get(k) ?? [];
    list.push(a);
    this.unknown.set(k, list);
    this.unknownCount += 1;
  }
}

interface BulkOp {
  index: IndexName;
  id: string;
  op: 'index' | 'create' | 'delete';
  source: string | null;
}

let sourceCounter = 0;

function makeOp(writer: number, round: number): BulkOp {
  const index = pick(INDEX_NAMES);
  const id = `d${randInt(0, IDS_PER_INDEX - 1)}`;
  const r = rand();
  if (r < 0.1) return { index, id, op: 'delete', source: null };
  const n = ++sourceCounter;
  const doc: Record<string, unknown> = {
    n,
    writer,
    round,
    title: `document ${id} write ${n} ${'lorem ipsum '.repeat(randInt(0, 6))}`.trim(),
    count: randInt(0, 1_000_000),
    ratio: Math.round(rand() * 1e6) / 1e3,
    ok: rand() < 0.5,
    nested: { at: new Date(1_700_000_000_000 + n * 1000).toISOString(), path: ['a', 'b', String(n)] },
  };
  // New fields now and then: dynamic mapping extends the shard schema (commit + meta rewrite)
  // while other writers are busy.
  if (rand() < 0.04) doc[`tag_${randInt(0, 39)}`] = `t${n}`;
  return { index, id, op: r < 0.2 ? 'create' : 'index', source: JSON.stringify(doc) };
}

function bulkBody(ops: BulkOp[]): string {
  let body = '';
  for (const o of ops) {
    body += JSON.stringify({ [o.op]: { _index: o.index, _id: o.id } }) + '\n';
    if (o.source !== null) body += o.source + '\n';
  }
  return body;
}

interface BulkItem {
  _index: string;
  _id: string;
  _version?: number;
  _seq_no?: number;
  result?: string;
  status: number;
  error?: { type: string; reason: string };
}

async function writer(server: QuarryServer, model: Model, w: number, round: number, halt: { stop: boolean }): Promise<void> {
  while (!halt.stop) {
    const ops = Array.from({ length: randInt(1, 40) }, () => makeOp(w, round));
    let items: Array<Record<string, BulkItem>> | undefined;
    try {
      const res = await fetch(`${server.url}/_bulk?refresh=false`, {
        method: 'POST',
        headers: { 'content-type': 'application/x-ndjson' },
        body: bulkBody(ops),
      });
      const text = await res.text();
      if (res.status !== 200) {
        model.problems.push(`bulk answered ${res.status}: ${text.slice(0, 500)}`);
      } else {
        items = (JSON.parse(text) as { items: Array<Record<string, BulkItem>> }).items;
      }
    } catch {
      // No response (the process was killed mid-request, or was already gone): unknown outcome.
    }
    if (items === undefined || items.length !== ops.length) {
      if (items !== undefined) model.problems.push(`bulk answered ${items.length} items for ${ops.length} operations`);
      for (const o of ops) model.pending(o.index, o.id, { op: o.op, source: o.source });
      if (!halt.stop) await sleep(20);
      continue;
    }
    const got = items;
    ops.forEach((o, i) => {
      const item = got[i]?.[o.op];
      if (item === undefined || item._id !== o.id || item._index !== o.index) {
        model.problems.push(`bulk item ${i} does not match ${o.op} ${o.index}/${o.id}: ${JSON.stringify(got[i])}`);
        model.pending(o.index, o.id, { op: o.op, source: o.source });
        return;
      }
      if (item.error !== undefined) {
        if (o.op === 'create' && item.status === 409 && item.error.type === 'version_conflict_engine_exception') {
          model.conflicts += 1;
        } else {
          model.problems.push(`${o.op} ${o.index}/${o.id} failed: ${item.status} ${JSON.stringify(item.error)}`);
          model.pending(o.index, o.id, { op: o.op, source: o.source });
        }
        return;
      }
      if (typeof item._version !== 'number' || typeof item._seq_no !== 'number') {
        model.problems.push(`${o.op} ${o.index}/${o.id}: no _version/_seq_no in ${JSON.stringify(item)}`);
        return;
      }
      const expected = o.op === 'delete' ? ['deleted', 'not_found'] : ['created', 'updated'];
      if (!expected.includes(item.result ?? '')) {
        model.problems.push(`${o.op} ${o.index}/${o.id}: unexpected result ${JSON.stringify(item)}`);
      }
      model.ack(o.index, o.id, { source: o.source, version: item._version, seqNo: item._seq_no, round });
    });
  }
}

/** A writer that asks for refreshes and flushes now and then (more commits and translog rolls). */
async function committer(server: QuarryServer, halt: { stop: boolean }): Promise<void> {
  while (!halt.stop) {
    await sleep(randInt(30, 200));
    if (halt.stop) break;
    // Force merges too: tantivy saves the merged segment in a new meta.json while writes,
    // commits and translog trims go on, and a kill can land in the middle of it.
    const what = pick(['_refresh', '_flush', '_refresh', '_forcemerge?max_num_segments=1', '_forcemerge?only_expunge_deletes=true']);
    try {
      await (await fetch(`${server.url}/${pick(INDEX_NAMES)}/${what}`, { method: 'POST' })).text();
    } catch {
      // killed mid-request
    }
  }
}

// ---------------------------------------------------------------------------------------------
// Checking.

async function getJson(url: string, init?: RequestInit): Promise<{ status: number; body: unknown }> {
  let last: unknown;
  for (let attempt = 0; attempt < 3; attempt++) {
    try {
      const res = await fetch(url, init);
      const text = await res.text();
      return { status: res.status, body: text.length > 0 ? (JSON.parse(text) as unknown) : undefined };
    } catch (e) {
      last = e; // a pooled socket of the killed process; retry on a fresh one
      await sleep(50);
    }
  }
  throw last;
}

interface Observed {
  found: boolean;
  version?: number;
  seqNo?: number;
  source?: string;
}

interface MgetDoc {
  _id: string;
  found: boolean;
  _version?: number;
  _seq_no?: number;
  _source?: unknown;
  error?: unknown;
}

async function observeAll(server: QuarryServer, index: IndexName): Promise<Map<string, Observed>> {
  const ids = Array.from({ length: IDS_PER_INDEX }, (_, i) => `d${i}`);
  const { status, body } = await getJson(`${server.url}/${index}/_mget`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ ids }),
  });
  expect(status, JSON.stringify(body)).toBe(200);
  const docs = (body as { docs: MgetDoc[] }).docs;
  expect(docs.length).toBe(ids.length);
  const out = new Map<string, Observed>();
  docs.forEach((d, i) => {
    expect(d._id).toBe(ids[i]);
    expect(d.error, JSON.stringify(d)).toBeUndefined();
    out.set(
      d._id,
      d.found
        ? { found: true, version: d._version, seqNo: d._seq_no, source: JSON.stringify(d._source) }
        : { found: false },
    );
  });
  return out;
}

/** Compares what the restarted node has with what was acknowledged; returns the violations and
 * moves the model to the observed state (it is durable now: replay committed it). */
function reconcile(model: Model, index: IndexName, observed: Map<string, Observed>, round: number): string[] {
  const bad: string[] = [];
  for (const [id, obs] of observed) {
    const k = Model.key(index, id);
    const acked = model.state.get(k);
    const tries = model.unknown.get(k) ?? [];
    const fromUnknownWrite = obs.found && tries.some((t) => t.source !== null && t.source === obs.source);
    const unknownDelete = tries.some((t) => t.op === 'delete');
    const show = (s: DocState | undefined): string =>
      s === undefined ? 'nothing' : `${s.source === null ? 'deleted' : 'doc'} v${s.version} seq ${s.seqNo} (round ${s.round})`;
    const seen = obs.found ? `found v${obs.version} seq ${obs.seqNo} ${obs.source}` : 'not found';
    if (acked === undefined) {
      if (obs.found && !fromUnknownWrite) bad.push(`${k}: never written with an answer, yet ${seen} — not a source we sent`);
    } else if (acked.source !== null) {
      if (!obs.found) {
        if (!unknownDelete) bad.push(`${k}: LOST — acknowledged ${show(acked)} ${acked.source}, now not found`);
      } else if (obs.version === acked.version) {
        if (obs.source !== acked.source || obs.seqNo !== acked.seqNo) {
          bad.push(`${k}: acknowledged ${show(acked)} ${acked.source}, now ${seen}`);
        }
      } else if ((obs.version ?? 0) < acked.version) {
        bad.push(`${k}: ROLLED BACK — acknowledged ${show(acked)} ${acked.source}, now ${seen}`);
      } else if (!fromUnknownWrite) {
        bad.push(`${k}: acknowledged ${show(acked)}, now newer ${seen} which no unanswered write sent`);
      } else if ((obs.seqNo ?? -1) <= acked.seqNo) {
        bad.push(`${k}: newer version with an older seq_no: acknowledged ${show(acked)}, now ${seen}`);
      }
    } else if (obs.found) {
      // Acknowledged delete: only an unanswered write issued later may bring the id back, and
      // (in the same process life, where the tombstone is known) with a higher version.
      if (!fromUnknownWrite) bad.push(`${k}: RESURRECTED — acknowledged ${show(acked)}, now ${seen}`);
      else if (acked.round === round && (obs.version ?? 0) <= acked.version) {
        bad.push(`${k}: unanswered write over acknowledged ${show(acked)} came back with an older version: ${seen}`);
      }
    }
    // The observed state is now the baseline.
    if (obs.found) {
      model.state.set(k, { source: obs.source ?? null, version: obs.version ?? 0, seqNo: obs.seqNo ?? -1, round });
    } else if (acked !== undefined) {
      model.state.set(k, { ...acked, source: null, round });
    }
    model.unknown.delete(k);
  }
  return bad;
}

/** Appends garbage of several shapes to the newest translog generation of every shard. */
function tearTranslogTails(dataDir: string): string[] {
  const touched: string[] = [];
  const indicesDir = join(dataDir, 'indices');
  let shape = 0;
  for (const uuid of readdirSync(indicesDir)) {
    for (const shard of readdirSync(join(indicesDir, uuid))) {
      const tdir = join(indicesDir, uuid, shard, 'translog');
      if (!/^\d+$/.test(shard) || !existsSync(tdir)) continue;
      const gens = readdirSync(tdir)
        .map((f) => /^translog-(\d+)\.tlog$/.exec(f))
        .filter((m): m is RegExpExecArray => m !== null)
        .map((m) => Number(m[1]))
        .sort((a, b) => a - b);
      const newest = gens[gens.length - 1];
      if (newest === undefined) continue;
      const file = join(tdir, `translog-${newest}.tlog`);
      let garbage: Buffer;
      switch (shape++ % 3) {
        case 0: // random bytes
          garbage = Buffer.from(Array.from({ length: 37 }, () => randInt(0, 255)));
          break;
        case 1: {
          // a record header promising more payload than was written (torn write)
          garbage = Buffer.alloc(8 + 11);
          garbage.writeUInt32LE(4096, 0);
          garbage.writeUInt32LE(0xdeadbeef, 4);
          garbage.fill(0x41, 8);
          break;
        }
        default: {
          // a complete record whose checksum does not match
          garbage = Buffer.alloc(8 + 32);
          garbage.writeUInt32LE(32, 0);
          garbage.writeUInt32LE(0x12345678, 4);
          garbage.fill(0x7a, 8);
          break;
        }
      }
      appendFileSync(file, garbage);
      touched.push(file);
    }
  }
  return touched;
}

// ---------------------------------------------------------------------------------------------

describe('kill -9 during concurrent bulk writes', () => {
  let server: QuarryServer;

  beforeAll(async () => {
    server = createQuarry();
    await server.start();
    for (const [name, body] of Object.entries(INDICES)) {
      const { status, body: res } = await getJson(`${server.url}/${name}`, {
        method: 'PUT',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(body),
      });
      expect(status, JSON.stringify(res)).toBe(200);
    }
  });

  afterAll(async () => {
    await cleanupServers();
  });

  it(`keeps every acknowledged write across ${ROUNDS} kills and a torn translog tail (seed ${SEED})`, async () => {
    const model = new Model();
    for (let round = 1; round <= ROUNDS; round++) {
      const ackedBefore = model.acked;
      const started = Date.now();
      const halt = { stop: false };
      const workers = [
        ...Array.from({ length: WRITERS }, (_, w) => writer(server, model, w, round, halt)),
        committer(server, halt),
      ];
      // Kill at a random moment, but only once this round has had acknowledged writes.
      const deadline = Date.now() + randInt(300, 1500);
      while (Date.now() < deadline || model.acked - ackedBefore < 20) {
        await sleep(10);
        if (Date.now() - started > 40_000) throw new Error(`no progress in round ${round}: ${server.output()}`);
      }
      if (round % 2 === 0) {
        // Every other round the kill lands while a commit is under way: a refresh (or a force
        // merge) is sent and the process dies a few milliseconds later, in the middle of writing
        // segments and meta.json.
        const what = round % 4 === 0 ? '_forcemerge?max_num_segments=1' : '_refresh';
        fetch(`${server.url}/${pick(INDEX_NAMES)}/${what}`, { method: 'POST' }).then(
          (r) => r.text(),
          () => undefined,
        );
        await sleep(randInt(0, 4));
      }
      await server.kill9();
      halt.stop = true;
      await Promise.all(workers);

      let torn: string[] = [];
      if (round === TORN_TAIL_ROUND) {
        torn = tearTranslogTails(server.dataDir);
        expect(torn.length).toBe(4); // 3 + 1 shards
      }

      // The node must come back on the same data directory (a torn tail is dropped, not fatal).
      try {
        await server.start();
      } catch (e) {
        throw new Error(
          `seed ${SEED}: restart after kill -9 #${round}${torn.length > 0 ? ' and the torn translog tails' : ''} failed ` +
            `(${model.acked} acknowledged writes unreachable): ${(e as Error).message}`,
        );
      }

      const problems = [...model.problems];
      model.problems.length = 0;
      for (const index of INDEX_NAMES) {
        const observed = await observeAll(server, index);
        problems.push(...reconcile(model, index, observed, round));

        // The realtime GET of a few ids agrees with _mget.
        for (const id of Array.from({ length: 5 }, () => `d${randInt(0, IDS_PER_INDEX - 1)}`)) {
          const { status, body } = await getJson(`${server.url}/${index}/_doc/${id}`);
          const b = body as { found: boolean; _version?: number; _source?: unknown };
          const o = observed.get(id);
          expect(status).toBe(o?.found ? 200 : 404);
          expect(b.found).toBe(o?.found);
          if (o?.found) {
            expect(b._version).toBe(o.version);
            expect(JSON.stringify(b._source)).toBe(o.source);
          }
        }

        // The index holds each live document exactly once (no duplicate left by replay).
        const refreshed = await getJson(`${server.url}/${index}/_refresh`, { method: 'POST' });
        expect(refreshed.status).toBe(200);
        const counted = await getJson(`${server.url}/${index}/_count`);
        const live = [...observed.values()].filter((o) => o.found).length;
        expect((counted.body as { count: number }).count, `_count of ${index} after restart`).toBe(live);
      }
      const summary =
        `round ${round}: ${model.acked - ackedBefore} acknowledged, ${model.unknownCount} unanswered so far, ` +
        `${model.conflicts} create conflicts${torn.length > 0 ? `, garbage appended to ${torn.length} translog files` : ''}`;
      expect(problems.length, `seed ${SEED}, ${summary}\n${problems.slice(0, 40).join('\n')}\n--- server log:\n${server.output()}`).toBe(0);
      console.log(`[kill9] ${summary}`);
    }
    // Graceful path as well: after a normal stop nothing acknowledged is lost either.
    await server.restart('graceful');
    for (const index of INDEX_NAMES) {
      const problems = reconcile(model, index, await observeAll(server, index), ROUNDS + 1);
      expect(problems.length, `seed ${SEED}\n${problems.slice(0, 40).join('\n')}`).toBe(0);
    }
    // Six restarts of a release node: seconds on a quiet machine, far more while cores are shared.
  }, 180_000);
});
