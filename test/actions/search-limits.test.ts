// Bodies nested past what Quarry's recursive parsers allow get a 400 and the node stays up.
// OpenSearch has no such limit: its parsers recurse until the JVM's stack overflows, which stops
// the node, so these answers cannot be recorded from it (test/compat holds the recorded ones).
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';

let app: App;
let dataDir: string;

beforeAll(async () => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-limits-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  await search('{"query":{"match_all":{}}}', 'PUT', '/deep/_doc/1?refresh=true');
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

async function search(payload: string, method: 'POST' | 'PUT' = 'POST', url = '/deep/_search') {
  const res = await app.fastify.inject({ method, url, payload, headers: { 'content-type': 'application/json' } });
  return { status: res.statusCode, json: JSON.parse(res.body) as Record<string, any> };
}

const nestedBools = (n: number) => '{"query":' + '{"bool":{"must":['.repeat(n) + '{"match_all":{}}' + ']}}'.repeat(n) + '}';
const parens = (n: number) => '('.repeat(n) + 'a' + ')'.repeat(n);

describe('nesting limits', () => {
  it('runs a body nested up to 1000 levels and refuses a deeper one', async () => {
    // A bool level is three JSON levels (the query object, its body, the clause array), plus
    // the body, the innermost query and its body: 332 bools are 999 levels, 333 are 1002.
    expect((await search(nestedBools(332))).status).toBe(200);
    const deeper = await search(nestedBools(333));
    expect(deeper.status).toBe(400);
    expect(deeper.json.error.type).toBe('stream_constraints_exception');
    expect(deeper.json.error.reason).toBe('Document nesting depth (1001) exceeds the maximum allowed (1000, from `StreamReadConstraints.getMaxNestingDepth()`)');
    const arrays = await search('{"query":{"match_all":{}},"x":' + '['.repeat(200_000) + ']'.repeat(200_000) + '}');
    expect(arrays.status).toBe(400);
    expect(arrays.json.error.type).toBe('stream_constraints_exception');
  });

  it('refuses query strings whose groups nest past 1000', async () => {
    for (const type of ['query_string', 'simple_query_string']) {
      const within = await search(JSON.stringify({ query: { [type]: { query: parens(1000), fields: ['x'] } } }));
      expect(within.status, type).toBe(200);
      const deeper = await search(JSON.stringify({ query: { [type]: { query: parens(50_000), fields: ['x'] } } }));
      expect(deeper.status, type).toBe(400);
      expect(deeper.json.error.root_cause[0].type, type).toBe('query_shard_exception');
      expect(JSON.stringify(deeper.json.error.failed_shards[0].reason), type).toContain('Groups may nest at most 1000 deep.');
    }
  });

  it('is still up', async () => {
    const res = await app.fastify.inject({ method: 'GET', url: '/' });
    expect(res.statusCode).toBe(200);
  });
});
