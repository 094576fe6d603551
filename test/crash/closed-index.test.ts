// A closed index across `kill -9` (DESIGN.md §4): a real Quarry process closes an index holding
// writes that were never refreshed, is killed, and comes back with the index still closed and
// refusing reads; opening it brings back every document at its version and `_seq_no`. Killed
// again right after the open, it comes back open with the same documents.
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;

type Json = Record<string, any>;

async function call(method: string, path: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await fetch(server.url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, json: (await res.json()) as Json };
}

/** Every document of `index` as `id → [version, seq_no, source]`. */
async function documents(index: string): Promise<Record<string, [number, number, Json]>> {
  const r = await call('POST', `/${index}/_search`, { size: 100, version: true, seq_no_primary_term: true, query: { match_all: {} } });
  expect(r.status).toBe(200);
  return Object.fromEntries((r.json.hits.hits as Json[]).map((h) => [h._id as string, [h._version as number, h._seq_no as number, h._source as Json]]));
}

beforeAll(async () => {
  server = await startQuarry();
});

afterAll(async () => {
  await cleanupServers();
});

describe('a closed index and kill -9', () => {
  it('stays closed across a crash and opens with every acknowledged write', async () => {
    // No scheduled refresh: whatever is not committed at close comes from the translog.
    expect((await call('PUT', '/kept', { settings: { number_of_shards: 2, number_of_replicas: 0, refresh_interval: '-1' } })).status).toBe(200);
    const expected: Record<string, [number, number, Json]> = {};
    for (let i = 0; i < 20; i++) {
      const r = await call('PUT', `/kept/_doc/${i}`, { n: i });
      expect(r.status).toBe(201);
    }
    for (let i = 0; i < 20; i += 3) expect((await call('PUT', `/kept/_doc/${i}`, { n: i, again: true })).status).toBe(200);
    expect((await call('DELETE', '/kept/_doc/1')).status).toBe(200);
    expect((await call('POST', '/kept/_refresh')).status).toBe(200);
    Object.assign(expected, await documents('kept'));
    expect(Object.keys(expected)).toHaveLength(19);
    // Writes after the last refresh too.
    expect((await call('PUT', '/kept/_doc/100', { n: 100 })).status).toBe(201);
    expect((await call('POST', '/kept/_close')).json.indices).toEqual({ kept: { closed: true } });

    await server.restart('kill9');
    const refused = await call('GET', '/kept/_search');
    expect(refused.status).toBe(400);
    expect(refused.json.error.type).toBe('index_closed_exception');
    expect((await call('GET', '/kept/_settings')).json.kept.settings.index.verified_before_close).toBe('true');

    expect((await call('POST', '/kept/_open')).status).toBe(200);
    const reopened = await documents('kept');
    expect(reopened['100']?.[2]).toEqual({ n: 100 });
    delete reopened['100'];
    expect(reopened).toEqual(expected);

    await server.restart('kill9');
    expect((await call('GET', '/_cat/indices/kept?h=status&format=json')).json).toEqual([{ status: 'open' }]);
    const afterCrash = await documents('kept');
    delete afterCrash['100'];
    expect(afterCrash).toEqual(expected);
  });
});
