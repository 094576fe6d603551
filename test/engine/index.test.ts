// The native facade on a temporary data dir: how request bodies are lent to the engine.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { Engine } from '../../src/engine';

let engine: Engine;
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-engine-'));
  engine = Engine.open({ dataPath: dataDir, nodeName: 'n', clusterName: 'c', autoCreateIndex: 'true', host: '127.0.0.1' });
});

afterAll(async () => {
  await engine.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

/** A Buffer that is the whole of its own ArrayBuffer, as node's HTTP parser hands body chunks. */
function own(text: string): Buffer {
  const b = Buffer.alloc(Buffer.byteLength(text));
  b.write(text);
  return b;
}

const BULK = '{"index":{"_id":"1"}}\n{"title":"rose"}\n{"index":{"_id":"2"}}\n{"title":"tulip"}\n';

describe('request bodies', () => {
  it('joins a chunked body in order, then frees the chunks that own their memory', async () => {
    const cut = BULK.indexOf('{"index":{"_id":"2"}}');
    const chunks = [own(BULK.slice(0, 10)), own(BULK.slice(10, cut)), own(BULK.slice(cut))];
    const r = await engine.execute('indices:data/write/bulk', { index: 'flowers', refresh: 'true' }, chunks);
    expect(r.status).toBe(200);
    expect(JSON.parse(r.body.toString())).toMatchObject({ errors: false, items: [{ index: { _id: '1', status: 201 } }, { index: { _id: '2', status: 201 } }] });
    for (const c of chunks) {
      expect(c.length).toBe(0);
      expect(c.buffer.byteLength).toBe(0);
    }
    const count = await engine.execute('indices:data/read/search', { index: 'flowers' }, Buffer.from('{"query":{"match":{"title":"tulip"}}}'));
    expect(JSON.parse(count.body.toString()).hits.total.value).toBe(1);
  });

  it('leaves a single Buffer, and chunks that share their memory, as they were', async () => {
    const single = own('{"query":{"match_all":{}}}');
    await engine.execute('indices:data/read/search', { index: 'flowers' }, single);
    expect(single.toString()).toBe('{"query":{"match_all":{}}}');

    const backing = own(BULK);
    const cut = BULK.indexOf('{"index":{"_id":"2"}}');
    const slices = [backing.subarray(0, cut), backing.subarray(cut)];
    const pooled = Buffer.from('\n'); // from node's shared allocation pool
    const r = await engine.execute('indices:data/write/bulk', { index: 'flowers' }, [...slices, pooled]);
    expect(r.status).toBe(200);
    expect(backing.toString()).toBe(BULK);
    expect(slices[1].toString()).toBe(BULK.slice(cut));
    expect(pooled.toString()).toBe('\n');
  });

  it('refuses a body that is not made of Buffers, and lets go of the chunks it took', async () => {
    await expect(engine.execute('indices:data/write/bulk', { index: 'flowers' }, [own('{}'), 'nope'] as unknown as Buffer[])).rejects.toThrow(/Buffer/);
  });
});

describe('response bodies', () => {
  it('frees a recycled body when the next call settles, and leaves what shares memory alone', async () => {
    const search = () => engine.execute('indices:data/read/search', { index: 'flowers' }, Buffer.from('{"query":{"match_all":{}}}'));
    const first = await search();
    const text = first.body.toString();
    expect(JSON.parse(text).hits.total.value).toBe(2);
    const kept = first.body.subarray(0, 10);
    const backing = own(text);
    const slice = backing.subarray(1);
    const pooled = Buffer.from('{}');
    engine.recycle(first.body);
    engine.recycle(slice);
    engine.recycle(pooled);
    expect(first.body.toString()).toBe(text); // nothing is freed before the next settle
    const second = await search();
    expect(first.body.length).toBe(0);
    expect(first.body.buffer.byteLength).toBe(0);
    expect(kept.length).toBe(0); // a view on the freed memory is emptied too, never dangling
    expect(backing.toString()).toBe(text);
    expect(slice.toString()).toBe(text.slice(1));
    expect(pooled.toString()).toBe('{}');
    expect(JSON.parse(second.body.toString()).hits).toEqual(JSON.parse(text).hits);
  });
});
