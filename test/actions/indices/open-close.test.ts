// POST /<target>/_close and /_open through the whole pipeline: routes, parameters, the engine's
// answers, what a closed index refuses, and an open run in the background as a task.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../src/app';
import { loadConfig } from '../../../src/config';

let app: App;
let dataDir: string;

type Json = Record<string, any>;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-open-close-'));
  const argv = ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`];
  app = buildApp(loadConfig({ argv, env: {}, configDir: dataDir }));
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: 'GET' | 'POST' | 'PUT' | 'DELETE', url: string, body?: unknown): Promise<{ status: number; json: Json }> {
  const res = await app.fastify.inject({
    method,
    url,
    ...(body === undefined ? {} : { payload: JSON.stringify(body), headers: { 'content-type': 'application/json' } }),
  });
  return { status: res.statusCode, json: JSON.parse(res.body) as Json };
}

async function eventually<T>(probe: () => Promise<T | undefined>): Promise<T> {
  for (let i = 0; i < 200; i++) {
    const v = await probe();
    if (v !== undefined) return v;
    await new Promise((r) => setTimeout(r, 25));
  }
  throw new Error('condition not met');
}

describe('closing and opening indices', () => {
  it('closes and opens with OpenSearch answers, keeping documents and versions', async () => {
    expect((await call('PUT', '/books', { settings: { number_of_shards: 1, number_of_replicas: 0 } })).status).toBe(200);
    expect((await call('PUT', '/books/_doc/1?refresh=true', { t: 'one' })).status).toBe(201);
    expect((await call('PUT', '/books/_doc/1', { t: 'one again' })).status).toBe(200);
    expect(await call('POST', '/books/_close')).toEqual({ status: 200, json: { acknowledged: true, shards_acknowledged: true, indices: { books: { closed: true } } } });
    expect(await call('POST', '/books/_close')).toEqual({ status: 200, json: { acknowledged: true, shards_acknowledged: false, indices: {} } });
    const refused = await call('GET', '/books/_doc/1');
    expect(refused.status).toBe(400);
    expect(refused.json.error).toMatchObject({ type: 'index_closed_exception', reason: 'closed', index: 'books' });
    expect((await call('PUT', '/books/_doc/2', { t: 'two' })).json.error.type).toBe('index_closed_exception');
    expect((await call('GET', '/books/_settings')).json.books.settings.index.verified_before_close).toBe('true');
    expect(await call('POST', '/books/_open')).toEqual({ status: 200, json: { acknowledged: true, shards_acknowledged: true } });
    const doc = await call('GET', '/books/_doc/1');
    expect(doc.json).toMatchObject({ _version: 2, _seq_no: 1, _primary_term: 1, _source: { t: 'one again' } });
    expect((await call('PUT', '/books/_doc/2', { t: 'two' })).json).toMatchObject({ _seq_no: 2, _primary_term: 3 });
  });

  it('refuses parameters the REST actions do not take, and a missing target', async () => {
    const unknown = await call('POST', '/books/_close?wait_for_completion=false');
    expect(unknown.status).toBe(400);
    expect(unknown.json.error.reason).toBe('request [/books/_close] contains unrecognized parameter: [wait_for_completion]');
    expect((await call('POST', '/books/_open?expand_wildcards=nope')).json.error.reason).toBe('No valid expand wildcard value [nope]');
    expect((await call('POST', '/books/_open?ignore_throttled=nope')).json.error.reason).toBe('Could not convert [ignore_throttled] to boolean');
    const missing = await call('POST', '/_close');
    expect(missing).toEqual({
      status: 400,
      json: {
        error: {
          root_cause: [{ type: 'action_request_validation_exception', reason: 'Validation Failed: 1: index is missing;' }],
          type: 'action_request_validation_exception',
          reason: 'Validation Failed: 1: index is missing;',
        },
        status: 400,
      },
    });
  });

  it('opens in the background as a task, whose kept result is the answer', async () => {
    expect((await call('POST', '/books/_close')).status).toBe(200);
    const started = await call('POST', '/books/_open?wait_for_completion=false');
    expect(started.status).toBe(200);
    const task = started.json.task as string;
    expect(task).toMatch(/^[A-Za-z0-9_-]+:\d+$/);
    const done = await eventually(async () => {
      const r = await call('GET', `/_tasks/${task}`);
      return r.json.completed === true ? r.json : undefined;
    });
    expect(done.task.action).toBe('indices:admin/open');
    expect(done.response).toEqual({ acknowledged: true, shards_acknowledged: true });
    expect((await call('GET', '/books/_count')).json.count).toBe(2);
  });
});
