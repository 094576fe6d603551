// Actions through app.inject(): the whole pipeline and the real engine on a temporary data dir.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-actions-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`, '-E', 'http.max_content_length=1kb'], env: {}, configDir: dataDir }));
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function req(method: 'GET' | 'PUT' | 'POST' | 'DELETE' | 'HEAD', url: string, body?: unknown, contentType = 'application/json') {
  const payload = body === undefined ? undefined : typeof body === 'string' ? body : JSON.stringify(body);
  const res = await app.fastify.inject({ method, url, payload, headers: payload === undefined ? {} : { 'content-type': contentType } });
  return { status: res.statusCode, json: res.body.length > 0 && res.body.startsWith('{') ? (JSON.parse(res.body) as Record<string, any>) : undefined, headers: res.headers, text: res.body };
}

describe('document actions', () => {
  it('indexes, reads in real time, updates and deletes with versions', async () => {
    const created = await req('PUT', '/books/_doc/1', { title: 'Rose', year: 1980 });
    expect(created.status).toBe(201);
    expect(created.headers.location).toBe('/books/_doc/1');
    expect(created.json).toMatchObject({ _index: 'books', _id: '1', _version: 1, result: 'created', _seq_no: 0, _primary_term: 1 });
    const got = await req('GET', '/books/_doc/1');
    expect(got.json).toMatchObject({ found: true, _version: 1, _source: { title: 'Rose', year: 1980 } });
    const updated = await req('POST', '/books/_update/1', { doc: { year: 1981 } });
    expect(updated.json).toMatchObject({ result: 'updated', _version: 2 });
    const noop = await req('POST', '/books/_update/1', { doc: { year: 1981 } });
    expect(noop.json).toMatchObject({ result: 'noop', _version: 2 });
    const conflict = await req('PUT', '/books/_doc/1?if_seq_no=0&if_primary_term=1', { title: 'x' });
    expect(conflict.status).toBe(409);
    expect(conflict.json?.error.type).toBe('version_conflict_engine_exception');
    expect((await req('DELETE', '/books/_doc/1')).json).toMatchObject({ result: 'deleted', _version: 3 });
    expect((await req('GET', '/books/_doc/1')).status).toBe(404);
    expect((await req('HEAD', '/books/_doc/1')).status).toBe(404);
  });

  it('maps dynamically and refuses a wrong type', async () => {
    await req('PUT', '/dyn/_doc/1?refresh=true', { name: 'a', n: 3, when: '2020-01-01' });
    const mapping = await req('GET', '/dyn/_mapping');
    expect(mapping.json?.dyn.mappings.properties).toMatchObject({
      name: { type: 'text', fields: { keyword: { type: 'keyword', ignore_above: 256 } } },
      n: { type: 'long' },
      when: { type: 'date' },
    });
    const bad = await req('PUT', '/dyn/_doc/2', { n: 'abc' });
    expect(bad.status).toBe(400);
    expect(bad.json?.error.type).toBe('mapper_parsing_exception');
    expect((await req('GET', '/dyn/_count')).json?.count).toBe(1);
  });

  it('runs bulk items independently', async () => {
    const body = '{"index":{"_index":"bk","_id":"1"}}\n{"a":1}\n{"create":{"_index":"bk","_id":"1"}}\n{"a":2}\n{"delete":{"_index":"bk","_id":"9"}}\n';
    const res = await req('POST', '/_bulk', body, 'application/x-ndjson');
    expect(res.json?.errors).toBe(true);
    expect(res.json?.items.map((i: Record<string, { status: number }>) => Object.values(i)[0]?.status)).toEqual([201, 409, 404]);
    const noNewline = await req('POST', '/_bulk', '{"index":{"_index":"bk"}}\n{"a":1}', 'application/x-ndjson');
    expect(noNewline.json?.error.reason).toBe('The bulk request must be terminated by a newline [\\n]');
  });

  it('answers bad input with OpenSearch errors', async () => {
    expect((await req('GET', '/books/_doc/1?bogus=1')).json?.error.reason).toBe('request [/books/_doc/1] contains unrecognized parameter: [bogus]');
    expect((await req('GET', '/missing/_doc/1')).json?.error.type).toBe('index_not_found_exception');
    expect((await req('PUT', '/Upper')).json?.error.type).toBe('invalid_index_name_exception');
    expect((await req('PUT', '/big/_doc/1', { x: 'y'.repeat(2000) })).status).toBe(413);
    expect((await req('PUT', '/books/_doc/2', 'hello', 'text/plain')).status).toBe(406);
    expect((await req('PUT', '/books/_doc/2', '{"a":', 'application/json')).json?.error.type).toBe('mapper_parsing_exception');
  });

  it('serves the root, health and cat', async () => {
    const root = await req('GET', '/');
    expect(root.json?.version.number).toBe('0.13.0');
    expect((await req('GET', '/_cluster/health')).json?.status).toBe('yellow');
    const cat = await req('GET', '/_cat/indices?h=index&s=index');
    expect(cat.text.split('\n').filter(Boolean)).toEqual(expect.arrayContaining(['books', 'dyn']));
  });
});
