// Where a search names the node that answered (a hit's `_node` under `explain`, a failed shard's
// `node`), it is this node's persistent id, the one `GET /_nodes` lists.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;

async function call(method: 'GET' | 'POST' | 'PUT', url: string, body?: unknown) {
  const res = await app.fastify.inject({ method, url, payload: body === undefined ? undefined : JSON.stringify(body), headers: { 'content-type': 'application/json' } });
  return { status: res.statusCode, json: JSON.parse(res.body) as Record<string, any> };
}

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-node-ids-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  await call('PUT', '/nums', { mappings: { properties: { n: { type: 'long' } } } });
  await call('PUT', '/words', { mappings: { properties: { n: { type: 'keyword' } } } });
  await call('PUT', '/nums/_doc/1?refresh=true', { n: 7 });
  await call('PUT', '/words/_doc/1?refresh=true', { n: 'abc' });
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function nodeId(): Promise<string> {
  const ids = Object.keys((await call('GET', '/_nodes')).json.nodes);
  expect(ids).toHaveLength(1);
  return ids[0] as string;
}

describe('node ids in search answers', () => {
  it('names this node in an explained hit', async () => {
    const r = await call('POST', '/nums/_search', { query: { term: { n: 7 } }, explain: true });
    expect(r.status).toBe(200);
    expect(r.json.hits.hits[0]._node).toBe(await nodeId());
  });

  it('names this node in a failed shard beside the others hits', async () => {
    const r = await call('POST', '/nums,words/_search', { query: { term: { n: 'abc' } } });
    expect(r.status).toBe(200);
    expect(r.json._shards.failed).toBe(1);
    expect(r.json._shards.failures[0].index).toBe('nums');
    expect(r.json._shards.failures[0].node).toBe(await nodeId());
    expect(r.json.hits.hits.map((h: { _index: string }) => h._index)).toEqual(['words']);
  });
});
