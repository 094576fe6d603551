// _cluster/health waits on the event loop, not on an engine thread.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../src/app';
import { loadConfig } from '../../../src/config';

let app: App;
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-health-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function get(url: string) {
  const res = await app.fastify.inject({ method: 'GET', url });
  return { status: res.statusCode, json: JSON.parse(res.body) as Record<string, any> };
}

describe('cluster health', () => {
  it('waits for a status it never reaches without holding the engine', async () => {
    // One replica on one node: yellow forever.
    await app.fastify.inject({ method: 'PUT', url: '/h', payload: { settings: { number_of_replicas: 1 } } });
    const order: string[] = [];
    // More waiters than the engine has search threads.
    const waits = Array.from({ length: os.availableParallelism() + 2 }, () =>
      get('/_cluster/health/h?wait_for_status=green&timeout=1500ms').then((r) => {
        order.push('health');
        return r;
      }),
    );
    const count = await get('/h/_count');
    order.push('count');
    expect(count.json.count).toBe(0);
    const answers = await Promise.all(waits);
    expect(order[0]).toBe('count');
    for (const a of answers) {
      expect(a.status).toBe(408);
      expect(a.json).toMatchObject({ status: 'yellow', timed_out: true });
    }
  });

  it('answers as soon as the status is reached, and refuses a bad timeout', async () => {
    const ok = await get('/_cluster/health/h?wait_for_status=yellow&timeout=10s');
    expect(ok.status).toBe(200);
    expect(ok.json.timed_out).toBe(false);
    const missing = get('/_cluster/health/later?timeout=5s');
    await app.fastify.inject({ method: 'PUT', url: '/later', payload: { settings: { number_of_replicas: 0 } } });
    const found = await missing;
    expect(found.status).toBe(200);
    expect(found.json.status).toBe('green');
    const bad = await get('/_cluster/health?timeout=abc');
    expect(bad.status).toBe(400);
    expect(bad.json.error.type).toBe('illegal_argument_exception');
  });
});
