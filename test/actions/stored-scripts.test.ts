// Stored scripts are cluster metadata: acknowledged means on disk, so a `kill -9` right after
// the answer loses neither a stored template nor a deletion.
import { afterAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry } from '../support/server';

afterAll(async () => {
  await cleanupServers();
});

async function call(url: string, method: string, path: string, body?: unknown): Promise<{ status: number; body: unknown }> {
  const res = await fetch(url + path, {
    method,
    headers: body === undefined ? {} : { 'content-type': 'application/json' },
    ...(body === undefined ? {} : { body: JSON.stringify(body) }),
  });
  return { status: res.status, body: await res.json() };
}

describe('stored scripts', () => {
  it('survive a kill -9, and so does their deletion', async () => {
    const server = await startQuarry();
    const script = { script: { lang: 'mustache', source: '{"query":{"match":{"t":"{{q}}"}}}' } };
    expect((await call(server.url, 'PUT', '/_scripts/kept', script)).body).toEqual({ acknowledged: true });
    expect((await call(server.url, 'PUT', '/_scripts/dropped', script)).body).toEqual({ acknowledged: true });
    expect((await call(server.url, 'DELETE', '/_scripts/dropped')).body).toEqual({ acknowledged: true });
    await server.restart('kill9');
    expect(await call(server.url, 'GET', '/_scripts/kept')).toEqual({
      status: 200,
      body: { _id: 'kept', found: true, script: script.script },
    });
    expect(await call(server.url, 'GET', '/_scripts/dropped')).toEqual({ status: 404, body: { _id: 'dropped', found: false } });
    const rendered = await call(server.url, 'POST', '/_render/template/kept', { params: { q: 'fox' } });
    expect(rendered.body).toEqual({ template_output: { query: { match: { t: 'fox' } } } });
  });
});
