// Reindex and delete-by-query: OpenSearch's answers (recorded from 2.19 by hand for the shapes
// and messages below), their long-running form (`wait_for_completion=false`, the result kept for
// `GET /_tasks/<id>`, across a kill -9), throttling and cancellation.
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { cleanupServers, startQuarry } from '../support/server';
import { completedTask, injectCall } from '../support/json-call';

let app: App;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), 'quarry-reindex-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  await call('PUT', '/src', { settings: { number_of_shards: 2 }, mappings: { properties: { t: { type: 'keyword' }, n: { type: 'long' } } } });
  const lines = ['{"index":{"_id":"1"}}', '{"t":"a","n":9007199254740993}', '{"index":{"_id":"2"}}', '{"t":"b","n":2}', '{"index":{"_id":"3"}}', '{"t":"a","n":3}'];
  await call('POST', '/src/_bulk?refresh=true', `${lines.join('\n')}\n`, 'application/x-ndjson');
});

afterAll(async () => {
  await app.close();
  rmSync(dataDir, { recursive: true, force: true });
  await cleanupServers();
});

async function call(method: string, url: string, body?: unknown, type = 'application/json'): Promise<{ status: number; text: string; body: any }> {
  return await injectCall(app, method, url, body, type);
}

const COUNTS = ['took', 'timed_out', 'total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled_millis', 'requests_per_second', 'throttled_until_millis', 'failures'];

async function waitForResult(id: string): Promise<any> {
  return await completedTask(app, id);
}

describe('reindex', () => {
  it('copies every document, longs digit for digit, with OpenSearch\'s answer', async () => {
    const r = await call('POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'dst' } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(COUNTS);
    expect(r.body).toMatchObject({ timed_out: false, total: 3, updated: 0, created: 3, deleted: 0, batches: 1, version_conflicts: 0, noops: 0, retries: { bulk: 0, search: 0 }, failures: [] });
    expect(r.text).toContain('"requests_per_second":-1.0,');
    expect((await call('GET', '/dst/_doc/1')).text).toContain('"_source":{"t":"a","n":9007199254740993}');
    // again: the same ids are updated
    const again = await call('POST', '/_reindex', { source: { index: 'src', size: 2 }, dest: { index: 'dst' } });
    expect(again.body).toMatchObject({ total: 3, updated: 3, created: 0, batches: 2 });
  });

  it('stops at version conflicts unless told to proceed, and honours query, max_docs and _source', async () => {
    const abort = await call('POST', '/_reindex', { source: { index: 'src', query: { term: { t: 'a' } } }, dest: { index: 'dst', op_type: 'create' } });
    expect(abort.status).toBe(409);
    expect(abort.body).toMatchObject({ total: 2, created: 0, version_conflicts: 2 });
    expect(abort.body.failures[0]).toMatchObject({ index: 'dst', cause: { type: 'version_conflict_engine_exception' }, status: 409 });
    expect(Object.keys(abort.body.failures[0])).toEqual(['index', 'id', 'cause', 'status']);
    const proceed = await call('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'dst', op_type: 'create' }, conflicts: 'proceed', max_docs: 2 });
    expect(proceed.status).toBe(200);
    expect(proceed.body).toMatchObject({ total: 2, version_conflicts: 2, failures: [] });

    const some = await call('POST', '/_reindex?max_docs=1&refresh=true', { source: { index: 'src', _source: ['t'], query: { term: { t: 'b' } } }, dest: { index: 'some' } });
    expect(some.body).toMatchObject({ total: 1, created: 1 });
    expect((await call('GET', '/some/_doc/2')).body._source).toEqual({ t: 'b' });
  });

  it('refuses what OpenSearch refuses, with its messages', async () => {
    const cases: Array<[string, unknown, number, string, string]> = [
      ['/_reindex', { source: { index: 'src' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: index must be specified;'],
      ['/_reindex', { dest: { index: 'x' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: use _all if you really want to copy from all existing indexes;'],
      ['/_reindex', { source: { index: 'src' }, dest: { index: 'src' } }, 400, 'action_request_validation_exception', 'Validation Failed: 1: reindex cannot write into an index its reading from [src];'],
      ['/_reindex', { source: { index: 'nope' }, dest: { index: 'x' } }, 404, 'index_not_found_exception', 'no such index [nope]'],
      ['/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, conflicts: 'maybe' }, 400, 'x_content_parse_exception', '[reindex] failed to parse field [conflicts]'],
      ['/_reindex', { source: { index: 'src' }, dest: { index: 'x', op_type: 'upsert' } }, 400, 'x_content_parse_exception', '[reindex] failed to parse field [dest]'],
      ['/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, bogus: 1 }, 400, 'x_content_parse_exception', '[reindex] unknown field [bogus]'],
      ['/_reindex?slices=x', { source: { index: 'src' }, dest: { index: 'x' } }, 400, 'illegal_argument_exception', '[slices] must be a positive integer or the string "auto", but was [x]'],
      ['/_reindex?requests_per_second=0', { source: { index: 'src' }, dest: { index: 'x' } }, 400, 'illegal_argument_exception', '[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.'],
      ['/_reindex', { source: { index: 'src' }, dest: { index: 'x' }, script: { source: 'ctx._source.n++' } }, 400, 'illegal_argument_exception', '[script] is not supported: Quarry has no scripting language'],
      ['/src/_delete_by_query', {}, 400, 'action_request_validation_exception', 'Validation Failed: 1: query is missing;'],
    ];
    for (const [url, body, status, type, reason] of cases) {
      const r = await call('POST', url, body);
      expect(r.status, `${url} ${JSON.stringify(body)}`).toBe(status);
      expect(r.body.error.type).toBe(type);
      // body positions (`[1:51] `) are checked by the compat scenarios, on OpenSearch's own bytes
      expect(String(r.body.error.reason).replace(/^\[\d+:\d+\] /, '')).toBe(reason);
    }
    const op = await call('POST', '/_reindex', { source: { index: 'src' }, dest: { index: 'x', op_type: 'upsert' } });
    expect(op.body.error.caused_by.caused_by).toEqual({ type: 'illegal_argument_exception', reason: "opType must be 'create' or 'index', found: [upsert]" });
  });
});

describe('delete by query', () => {
  it('deletes what a query or q finds, and its answer has no created or updated', async () => {
    await call('POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'del' } });
    const r = await call('POST', '/del/_delete_by_query?refresh=true', { query: { term: { t: 'b' } } });
    expect(r.status).toBe(200);
    expect(Object.keys(r.body)).toEqual(COUNTS.filter((k) => k !== 'updated' && k !== 'created'));
    expect(r.body).toMatchObject({ total: 1, deleted: 1, batches: 1, failures: [] });
    const q = await call('POST', '/del/_delete_by_query?q=t:a&refresh=true');
    expect(q.body).toMatchObject({ total: 2, deleted: 2 });
    expect((await call('GET', '/del/_count')).body.count).toBe(0);
  });
});

describe('update by query', () => {
  it('writes every matching document again, and its answer has no created', async () => {
    await call('POST', '/_reindex?refresh=true', { source: { index: 'src' }, dest: { index: 'upd' } });
    const all = await call('POST', '/upd/_update_by_query?refresh=true');
    expect(all.status).toBe(200);
    expect(Object.keys(all.body)).toEqual(COUNTS.filter((k) => k !== 'created'));
    expect(all.body).toMatchObject({ total: 3, updated: 3, deleted: 0, failures: [] });
    const some = await call('POST', '/upd/_update_by_query', { query: { term: { t: 'a' } } });
    expect(some.body).toMatchObject({ total: 2, updated: 2 });
    expect((await call('GET', '/upd/_doc/1')).body).toMatchObject({ _version: 3, _source: { t: 'a', n: 9007199254740993 } });
    const script = await call('POST', '/upd/_update_by_query', { script: { source: 'ctx._source.n++' } });
    expect(script.body.error.reason).toBe('[script] is not supported: Quarry has no scripting language');
  });
});

describe('long-running form', () => {
  it('answers with a task id at once and keeps the response, or the error, for GET /_tasks/<id>', async () => {
    const started = await call('POST', '/_reindex?wait_for_completion=false', { source: { index: 'src', size: 1 }, dest: { index: 'later' } });
    expect(started.status).toBe(200);
    expect(Object.keys(started.body)).toEqual(['task']);
    const done = await waitForResult(started.body.task);
    expect(Object.keys(done)).toEqual(['completed', 'task', 'response']);
    expect(done.task).toMatchObject({ action: 'indices:data/write/reindex', description: 'reindex from [src] to [later]', cancellable: true, cancelled: false, status: { total: 3, created: 3, batches: 3 } });
    expect(Object.keys(done.response)).toEqual(['took', 'timed_out', 'total', 'updated', 'created', 'deleted', 'batches', 'version_conflicts', 'noops', 'retries', 'throttled', 'throttled_millis', 'requests_per_second', 'throttled_until', 'throttled_until_millis', 'failures']);
    expect(done.response).toMatchObject({ created: 3, throttled: '0s', throttled_until: '0s' });

    const failing = await call('POST', '/_reindex?wait_for_completion=false', { source: { index: 'nope' }, dest: { index: 'later' } });
    const failed = await waitForResult(failing.body.task);
    expect(failed.error).toEqual({ type: 'index_not_found_exception', reason: 'no such index [nope]', index: 'nope', 'resource.id': 'nope', 'resource.type': 'index_or_alias', index_uuid: '_na_' });
    // an id that kept nothing: the .tasks index now exists, so no caused_by
    const missing = await call('GET', `/_tasks/${String(started.body.task).split(':')[0]}:999999`);
    expect(missing.status).toBe(404);
    expect(missing.body.error.caused_by).toBeUndefined();
    // deleting .tasks, as one clears them in OpenSearch, drops the kept results
    expect((await call('DELETE', '/.tasks')).body).toEqual({ acknowledged: true });
    const gone = await call('GET', `/_tasks/${started.body.task}`);
    expect(gone.status).toBe(404);
    expect(gone.body.error.caused_by).toMatchObject({ type: 'index_not_found_exception', reason: 'no such index [.tasks]' });
    expect((await call('DELETE', '/.tasks')).status).toBe(404);
  });

  it('throttles to requests_per_second, and a cancel stops it between batches', async () => {
    const started = await call('POST', '/_reindex?wait_for_completion=false&requests_per_second=4', { source: { index: 'src', size: 1 }, dest: { index: 'slow' } });
    const id = started.body.task as string;
    // its first search answers at once; the first batch then waits a quarter second
    await new Promise((r) => setTimeout(r, 50));
    const running = await call('GET', '/_tasks?detailed=true&actions=*reindex');
    const listed = Object.values(running.body.nodes)[0] as { tasks: Record<string, any> };
    expect(listed.tasks[id]).toMatchObject({ description: 'reindex from [src] to [slow]', status: { requests_per_second: 4 } });
    expect(running.text).toContain('"requests_per_second":4.0');
    await new Promise((r) => setTimeout(r, 100));
    const cancelled = await call('POST', `/_tasks/${id}/_cancel`);
    expect(cancelled.status).toBe(200);
    const done = await waitForResult(id);
    expect(done.response.canceled).toBe('by user request');
    expect(done.response.created).toBeLessThan(3);
    expect(done.response.throttled_millis).toBeGreaterThan(0);
    expect(Object.keys(done.response).slice(-2)).toEqual(['canceled', 'failures']);
  });

  it('keeps results across a kill -9, and a restarted node does not reuse their ids', async () => {
    const server = await startQuarry();
    const post = async (p: string, body?: unknown): Promise<any> => {
      const res = await fetch(server.url + p, { method: 'POST', ...(body === undefined ? {} : { headers: { 'content-type': 'application/json' }, body: JSON.stringify(body) }) });
      return res.json();
    };
    await post('/a/_doc/1?refresh=true', { x: 1 });
    const { task } = await post('/_reindex?wait_for_completion=false', { source: { index: 'a' }, dest: { index: 'b' } });
    for (let i = 0; i < 100; i++) {
      const r = (await (await fetch(`${server.url}/_tasks/${task}`)).json()) as { completed: boolean };
      if (r.completed) break;
      await new Promise((res) => setTimeout(res, 20));
    }
    await server.restart('kill9');
    const kept = (await (await fetch(`${server.url}/_tasks/${task}`)).json()) as { completed: boolean; response: { created: number } };
    expect(kept).toMatchObject({ completed: true, response: { created: 1 } });
    const next = await post('/_reindex?wait_for_completion=false', { source: { index: 'a' }, dest: { index: 'c' } });
    expect(Number(String(next.task).split(':')[1])).toBeGreaterThan(Number(String(task).split(':')[1]));
  });
});
