// Notification channel configs are acknowledged only once on disk: a kill -9 right after the
// answer loses neither a config, nor an update, nor a deletion.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';
import { fetchJson, type Json, type JsonAnswer } from '../support/json-call';

afterAll(async () => {
  await cleanupServers();
});

const call = (server: QuarryServer, method: string, path: string, body?: unknown): Promise<JsonAnswer> => fetchJson(server.url, method, path, body);

describe('notification configs on disk', () => {
  it('survive restarts, kill -9 included, with their times', async () => {
    const server = await startQuarry();
    const configs = '/_plugins/_notifications/configs';
    await call(server, 'POST', configs, { config_id: 'kept', config: { name: 'Kept', config_type: 'slack', slack: { url: 'https://hooks.slack.com/services/a' } } });
    await call(server, 'POST', configs, { config_id: 'dropped', config: { name: 'Dropped', config_type: 'chime', chime: { url: 'https://hooks.chime.aws/x' } } });
    await server.restart('graceful');
    const before = (await call(server, 'GET', `${configs}/kept`)).json.config_list[0];
    expect(before.config.name).toBe('Kept');
    expect((await call(server, 'PUT', `${configs}/kept`, { config: { name: 'Kept, renamed', config_type: 'slack', slack: { url: 'https://hooks.slack.com/services/b' } } })).status).toBe(200);
    expect((await call(server, 'DELETE', `${configs}/dropped`)).status).toBe(200);
    await server.restart('kill9');
    const after = (await call(server, 'GET', configs)).json;
    expect(after.total_hits).toBe(1);
    expect(after.config_list[0]).toMatchObject({
      config_id: 'kept',
      created_time_ms: before.created_time_ms,
      config: { name: 'Kept, renamed', config_type: 'slack', slack: { url: 'https://hooks.slack.com/services/b' } },
    });
    expect((await call(server, 'POST', configs, { config_id: 'kept', config: { name: 'x', config_type: 'slack', slack: { url: 'https://a.example.com' } } })).json.error.reason).toBe(
      '[kept]: version conflict, document already exists (current version [2])',
    );
  });
});
