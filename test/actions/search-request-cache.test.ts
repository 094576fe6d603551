// The shard request cache answers a repeated `size: 0` search from the shard's point-in-time
// reader: what a refresh makes visible (a new document, an update, a delete) must reach the next
// answer, and what it has not made visible yet must not. OpenSearch answers the same, so the
// recorded scenarios cannot tell a stale cache from a fresh one; this test can.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-request-cache-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function send(method: 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown) {
  const res = await app.fastify.inject({ method, url, payload: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return JSON.parse(res.body) as Record<string, any>;
}

const totals = async (query = '') => {
  const r = await send('POST', `/rc/_search${query}`, { size: 0, aggs: { n: { sum: { field: 'n' } }, k: { terms: { field: 'k' } } } });
  return { total: r.hits.total.value as number, sum: r.aggregations.n.value as number, keys: (r.aggregations.k.buckets as { key: string }[]).map((b) => b.key) };
};

describe('request cache', () => {
  it('answers from the reader a refresh made, never a stale one', async () => {
    await send('PUT', '/rc', { settings: { number_of_shards: 2 }, mappings: { properties: { k: { type: 'keyword' }, n: { type: 'long' } } } });
    expect(await totals()).toEqual({ total: 0, sum: 0, keys: [] });
    await send('PUT', '/rc/_doc/1?refresh=true', { k: 'a', n: 1 });
    expect(await totals()).toEqual({ total: 1, sum: 1, keys: ['a'] });
    expect(await totals()).toEqual({ total: 1, sum: 1, keys: ['a'] });
    await send('PUT', '/rc/_doc/2?refresh=true', { k: 'b', n: 2 });
    expect(await totals()).toEqual({ total: 2, sum: 3, keys: ['a', 'b'] });
    // Not refreshed yet: the reader, and so the answer, are the same.
    await send('PUT', '/rc/_doc/2', { k: 'b', n: 5 });
    expect(await totals()).toEqual({ total: 2, sum: 3, keys: ['a', 'b'] });
    await send('POST', '/rc/_refresh');
    expect(await totals()).toEqual({ total: 2, sum: 6, keys: ['a', 'b'] });
    await send('DELETE', '/rc/_doc/1?refresh=true');
    expect(await totals()).toEqual({ total: 1, sum: 5, keys: ['b'] });
    expect(await totals('?request_cache=false')).toEqual({ total: 1, sum: 5, keys: ['b'] });
  });

});
