// The bulk-by-scroll loop over many batches, each one engine call that writes the page read
// ahead by the call before: sources copied as their bytes are, routing, max_docs inside a page,
// a conflict in a later batch (aborting, or proceeding), and a delete-by-query whose guard
// catches a document changed after its search began.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { completedTask, injectCall } from '../support/json-call';

let app: App;
let dataDir: string;
const DOCS = 2500;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-bulk-by-scroll-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  await call('PUT', '/many', { settings: { number_of_shards: 1 }, mappings: { properties: { n: { type: 'long' } } } });
  const lines: string[] = [];
  for (let i = 0; i < DOCS; i++) {
    const routing = i % 100 === 7 ? ',"routing":"r7"' : '';
    lines.push(`{"index":{"_id":"${i}"${routing}}}`);
    // Odd spacing and a long past 2^53: the copy keeps both.
    lines.push(i % 2 === 0 ? `{"n":${i},"big":9007199254740993}` : `{ "n" : ${i}, "s" : "\\u00e9" }`);
  }
  const bulk = await call('POST', '/many/_bulk?refresh=true', `${lines.join('\n')}\n`, 'application/x-ndjson');
  expect(bulk.body.errors).toBe(false);
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function call(method: string, url: string, body?: unknown, type = 'application/json'): Promise<{ status: number; text: string; body: any }> {
  return await injectCall(app, method, url, body, type);
}

/** The id at `_doc` position `at` of `index`: the scroll's order, so the page it is in is known. */
async function idAt(index: string, at: number): Promise<string> {
  const r = await call('POST', `/${index}/_search`, { from: at, size: 1, sort: ['_doc'], _source: false });
  return r.body.hits.hits[0]._id as string;
}

async function waitForResult(id: string): Promise<any> {
  return await completedTask(app, id);
}

describe('bulk by scroll', () => {
  it('copies batch after batch, each source as its bytes are, with its routing', async () => {
    const r = await call('POST', '/_reindex?refresh=true', { source: { index: 'many', size: 1000 }, dest: { index: 'copy' } });
    expect(r.status).toBe(200);
    expect(r.body).toMatchObject({ total: DOCS, created: DOCS, updated: 0, batches: 3, version_conflicts: 0, failures: [] });
    expect((await call('GET', '/copy/_count')).body.count).toBe(DOCS);
    expect((await call('GET', '/copy/_doc/1')).text).toContain('"_source":{ "n" : 1, "s" : "\\u00e9" }');
    expect((await call('GET', '/copy/_doc/2400')).text).toContain('"_source":{"n":2400,"big":9007199254740993}');
    const routed = await call('GET', '/copy/_doc/2407?routing=r7');
    expect(routed.body).toMatchObject({ found: true, _routing: 'r7' });

    const set = await call('POST', '/_reindex?refresh=true', { source: { index: 'many', query: { ids: { values: ['7', '8'] } } }, dest: { index: 'set', routing: '=x' } });
    expect(set.body).toMatchObject({ created: 2 });
    expect((await call('GET', '/set/_doc/7?routing=x')).body).toMatchObject({ found: true, _routing: 'x' });
    const discard = await call('POST', '/_reindex?refresh=true', { source: { index: 'many', query: { ids: { values: ['7'] } } }, dest: { index: 'bare', routing: 'discard' } });
    expect(discard.body).toMatchObject({ created: 1 });
    expect((await call('GET', '/bare/_doc/7')).body._routing).toBeUndefined();
  });

  it('stops inside a page at max_docs', async () => {
    const r = await call('POST', '/_reindex?refresh=true', { max_docs: 1500, source: { index: 'many', size: 1000 }, dest: { index: 'part' } });
    expect(r.body).toMatchObject({ total: 1500, created: 1500, batches: 2, failures: [] });
    expect((await call('GET', '/part/_count')).body.count).toBe(1500);
  });

  it('aborts after the batch that met a conflict, or counts it and goes on', async () => {
    // A document of the second page: the first batch is written whole, the second all but it.
    const taken = await idAt('many', 1500);
    await call('PUT', `/taken/_doc/${taken}?refresh=true`, { n: -1 });
    const abort = await call('POST', '/_reindex?refresh=true', { source: { index: 'many', size: 1000 }, dest: { index: 'taken', op_type: 'create' } });
    expect(abort.status).toBe(409);
    expect(abort.body).toMatchObject({ total: DOCS, created: 1999, batches: 2, version_conflicts: 1 });
    expect(abort.body.failures).toHaveLength(1);
    expect(abort.body.failures[0]).toMatchObject({ index: 'taken', id: taken, status: 409, cause: { type: 'version_conflict_engine_exception' } });
    expect((await call('GET', '/taken/_count')).body.count).toBe(2000);

    const proceed = await call('POST', '/_reindex?refresh=true', { conflicts: 'proceed', source: { index: 'many', size: 1000 }, dest: { index: 'taken', op_type: 'create' } });
    expect(proceed.status).toBe(200);
    expect(proceed.body).toMatchObject({ total: DOCS, created: 500, batches: 3, version_conflicts: 2000, failures: [] });
    expect((await call('GET', `/taken/_doc/${taken}`)).body._source).toEqual({ n: -1 });
  });

  it('deletes only what is unchanged since the search: a later write is a conflict', async () => {
    await call('POST', '/_reindex?refresh=true', { source: { index: 'many', query: { range: { n: { lt: 30 } } } }, dest: { index: 'gone' } });
    // Ten a batch, at most twenty a second: a batch every half second, the first at once.
    const started = await call('POST', '/gone/_delete_by_query?wait_for_completion=false&scroll_size=10&requests_per_second=20', { query: { match_all: {} } });
    const id = started.body.task as string;
    await new Promise((r) => setTimeout(r, 150));
    // A document of the third page, which the search saw before this write.
    const changed = await idAt('gone', 25);
    expect((await call('PUT', `/gone/_doc/${changed}?refresh=true`, { changed: true })).status).toBe(200);
    const done = await waitForResult(id);
    expect(done.response).toMatchObject({ total: 30, deleted: 29, batches: 3, version_conflicts: 1 });
    expect(done.response.failures[0]).toMatchObject({ index: 'gone', id: changed, status: 409 });
    const left = await call('GET', `/gone/_doc/${changed}`);
    expect(left.body._source).toEqual({ changed: true });
  });
});
