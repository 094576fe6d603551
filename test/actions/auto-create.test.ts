// action.auto_create_index through the whole pipeline: the engine decides and words refusals.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-autocreate-'));
  const argv = ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`, '-E', 'action.auto_create_index=-logs-*,metrics-*'];
  app = buildApp(loadConfig({ argv, env: {}, configDir: dataDir }));
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function put(url: string) {
  const res = await app.fastify.inject({ method: 'PUT', url, payload: '{"a":1}', headers: { 'content-type': 'application/json' } });
  return { status: res.statusCode, json: JSON.parse(res.body) as { error?: { type: string; reason: string } } };
}

describe('action.auto_create_index', () => {
  it('creates indices the patterns allow', async () => {
    expect((await put('/metrics-cpu/_doc/1')).status).toBe(201);
  });

  it('refuses the others with OpenSearch wording', async () => {
    const forbidden = await put('/logs-1/_doc/1');
    expect(forbidden.status).toBe(404);
    expect(forbidden.json.error?.reason).toBe(
      'no such index [logs-1] and [action.auto_create_index] contains [-logs-*] which forbids automatic creation of the index',
    );
    const unmatched = await put('/other/_doc/1');
    expect(unmatched.json.error?.reason).toBe("no such index [other] and [action.auto_create_index] ([-logs-*,metrics-*]) doesn't match");
  });
});
