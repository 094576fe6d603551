// Notification settings are acknowledged only once on disk: they survive a graceful restart and
// a kill -9 right after the answer, and so does a deletion; sequence numbers keep counting.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';
import { fetchJson, type Json, type JsonAnswer } from '../support/json-call';

afterAll(async () => {
  await cleanupServers();
});

const call = (server: QuarryServer, method: string, path: string, body?: unknown): Promise<JsonAnswer> => fetchJson(server.url, method, path, body);

describe('notification settings on disk', () => {
  it('survive restarts, kill -9 included, and so do deletions', async () => {
    const server = await startQuarry();
    const nodeId = Object.keys((await call(server, 'GET', '/_nodes')).json.nodes as Json)[0] ?? '';
    const global = await call(server, 'POST', '/_plugins/_im/lron', { lron_config: { action_name: 'indices:admin/forcemerge', channels: [{ id: 'ops' }] } });
    const open = await call(server, 'POST', '/_plugins/_im/lron', { lron_config: { action_name: 'indices:admin/open', lron_condition: { failure: false }, channels: [{ id: 'ops' }] } });
    expect([global.status, open.status]).toEqual([200, 200]);
    await server.restart('graceful');
    const listed = await call(server, 'GET', '/_plugins/_im/lron');
    expect(listed.json).toEqual({ lron_configs: [global.json, open.json], total_number: 2 });

    // Written, acknowledged, killed at once.
    const oneTime = await call(server, 'POST', '/_plugins/_im/lron', { lron_config: { task_id: `${nodeId}:7`, channels: [{ id: 'ops' }] } });
    expect(oneTime.status).toBe(200);
    const deleted = await call(server, 'DELETE', '/_plugins/_im/lron/LRON:indices:admin%2Fopen');
    expect(deleted.json.result).toBe('deleted');
    await server.restart('kill9');
    expect((await call(server, 'GET', '/_plugins/_im/lron')).json).toEqual({ lron_configs: [global.json, oneTime.json], total_number: 2 });
    expect((await call(server, 'GET', '/_plugins/_im/lron/LRON:indices:admin%2Fopen')).status).toBe(404);
    // The index keeps its identity and its sequence: the next write follows the last one.
    const conflict = await call(server, 'POST', '/_plugins/_im/lron', { lron_config: { action_name: 'indices:admin/forcemerge', channels: [{ id: 'x' }] } });
    expect(conflict.status).toBe(409);
    const again = await call(server, 'DELETE', '/_plugins/_im/lron/LRON:indices:admin%2Fopen');
    expect(again.json._seq_no).toBe((deleted.json._seq_no as number) + 1);
  });
});
