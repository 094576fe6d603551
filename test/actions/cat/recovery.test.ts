// `_cat/recovery` on a real node: a new shard is an empty store; after a kill -9 the shard opens
// from its own files and replays the operations its translog held past the last commit.
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

async function recovery(): Promise<Record<string, string>[]> {
  const res = await call('GET', '/_cat/recovery/rec?format=json&h=type,stage,files_total,bytes_total,files_percent,translog_ops,translog_ops_recovered,start_time_millis,stop_time_millis');
  expect(res.status).toBe(200);
  return res.json as unknown as Record<string, string>[];
}

describe('_cat/recovery', () => {
  it('tells an empty store from an existing one and counts the replayed operations', async () => {
    await call('PUT', '/rec', { settings: { number_of_shards: 1, number_of_replicas: 0, refresh_interval: '-1' } });
    const [fresh] = await recovery();
    expect(fresh).toMatchObject({ type: 'empty_store', stage: 'done', files_total: '0', bytes_total: '0', files_percent: '0.0%', translog_ops: '0' });
    expect(Number(fresh?.stop_time_millis)).toBeGreaterThanOrEqual(Number(fresh?.start_time_millis));

    for (const id of ['1', '2', '3']) expect((await call('PUT', `/rec/_doc/${id}`, { a: id })).status).toBe(201);
    await server.restart('kill9');

    const [reopened] = await recovery();
    expect(reopened).toMatchObject({ type: 'existing_store', stage: 'done', files_percent: '100.0%', translog_ops: '3', translog_ops_recovered: '3' });
    expect(Number(reopened?.files_total)).toBeGreaterThan(0);
    expect(Number(reopened?.bytes_total)).toBeGreaterThan(0);
    // The recovery API reads the same record.
    const api = (await call('GET', '/rec/_recovery')).json as unknown as Record<string, { shards: { type: string; translog: { recovered: number; total_on_start: number }; index: { files: { total: number; percent: string } } }[] }>;
    expect(api.rec?.shards[0]).toMatchObject({ type: 'EXISTING_STORE', translog: { recovered: 3, total_on_start: 3 }, index: { files: { total: Number(reopened?.files_total), percent: '100.0%' } } });
    const count = (await call('GET', '/rec/_count')).json as unknown as { count: number };
    expect(count.count).toBe(3);
  });
});
