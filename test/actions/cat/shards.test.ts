// `_cat/shards` on a real node: every index with no target (hidden and closed ones too, a closed
// index's shards started but without statistics), open ones through a pattern.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../../support/server';
import { fetchJson, type JsonAnswer } from '../../support/json-call';

let server: QuarryServer;

beforeAll(async () => {
  server = await startQuarry();
});

afterAll(async () => {
  await cleanupServers();
});

async function call(method: string, path: string, body?: unknown): Promise<JsonAnswer> {
  return await fetchJson(server.url, method, path, body);
}

describe('_cat/shards', () => {
  it('lists closed and hidden indices with no target, open ones through a pattern', async () => {
    await call('PUT', '/sh-closed', { settings: { number_of_shards: 2, number_of_replicas: 0 } });
    await call('PUT', '/sh-hidden', { settings: { number_of_shards: 1, number_of_replicas: 0, 'index.hidden': true } });
    await call('PUT', '/sh-open/_doc/1?refresh=true', { a: 1 });
    await call('PUT', '/sh-open/_doc/2?refresh=true', { a: 2 });
    expect((await call('POST', '/sh-closed/_close')).status).toBe(200);

    const all = (await call('GET', '/_cat/shards?format=json&h=index,shard,state,docs,ip,sqm&s=index,shard')).json as unknown as Record<string, string | null>[];
    expect(all).toEqual([
      { index: 'sh-closed', shard: '0', state: 'STARTED', docs: null, ip: '127.0.0.1', sqm: null },
      { index: 'sh-closed', shard: '1', state: 'STARTED', docs: null, ip: '127.0.0.1', sqm: null },
      { index: 'sh-hidden', shard: '0', state: 'STARTED', docs: '0', ip: '127.0.0.1', sqm: '-1' },
      { index: 'sh-open', shard: '0', state: 'STARTED', docs: '2', ip: '127.0.0.1', sqm: '1' },
    ]);
    const pattern = (await call('GET', '/_cat/shards/sh-*?format=json&h=index')).json as unknown as { index: string }[];
    expect(pattern.map((r) => r.index)).toEqual(['sh-open']);
    const named = await call('GET', '/_cat/shards/sh-closed');
    expect(named.status).toBe(400);
    expect((named.json as { error: { type: string } }).error.type).toBe('index_closed_exception');
  });
});
