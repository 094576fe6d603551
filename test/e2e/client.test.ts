// End to end (issue 3 "The official client"): a real Quarry process over a socket, driven by
// `@opensearch-project/opensearch` through its typed methods, asserting on what comes back.
import { Client, errors } from '@opensearch-project/opensearch';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { cleanupServers, startQuarry, type QuarryServer } from '../support/server';

let server: QuarryServer;
let client: Client;

beforeAll(async () => {
  server = await startQuarry();
  client = new Client({ node: server.url });
});

afterAll(async () => {
  await client?.close();
  await cleanupServers();
});

/** Runs a call expected to fail and returns the client's ResponseError. */
async function failure(call: Promise<unknown>): Promise<errors.ResponseError> {
  try {
    await call;
  } catch (e) {
    expect(e).toBeInstanceOf(errors.ResponseError);
    return e as errors.ResponseError;
  }
  throw new Error('expected the call to fail');
}

interface ErrorBody {
  error: { type: string; reason: string; index?: string; root_cause?: Array<{ type: string }> };
  status: number;
}

describe('node', () => {
  it('info', async () => {
    const res = await client.info();
    expect(res.statusCode).toBe(200);
    expect(res.body.version.number).toBe('0.13.0');
    expect(typeof res.body.cluster_name).toBe('string');
    expect(typeof res.body.name).toBe('string');
    expect(typeof res.body.cluster_uuid).toBe('string');
    expect(res.body.tagline).toEqual(expect.any(String));
  });

  it('cluster.health', async () => {
    const res = await client.cluster.health();
    expect(res.statusCode).toBe(200);
    expect(res.body.number_of_nodes).toBe(1);
    expect(res.body.timed_out).toBe(false);
    expect(['green', 'yellow']).toContain(res.body.status);
  });
});

describe('indices', () => {
  it('create, exists, get', async () => {
    const created = await client.indices.create({
      index: 'books',
      body: {
        settings: { number_of_shards: 2, number_of_replicas: 0 },
        mappings: { properties: { title: { type: 'text' }, year: { type: 'integer' }, tag: { type: 'keyword' } } },
      },
    });
    expect(created.body).toEqual({ acknowledged: true, shards_acknowledged: true, index: 'books' });

    expect((await client.indices.exists({ index: 'books' })).body).toBe(true);
    const missing = await client.indices.exists({ index: 'nope' });
    expect(missing.body).toBe(false);
    expect(missing.statusCode).toBe(404);

    const got = await client.indices.get({ index: 'books' });
    const books = got.body.books;
    expect(books).toBeDefined();
    expect(books?.mappings?.properties?.year).toEqual({ type: 'integer' });
    expect(books?.settings?.index?.number_of_shards).toBe('2');
    expect(books?.settings?.index?.number_of_replicas).toBe('0');
    expect(books?.aliases).toEqual({});
  });

  it('create of an existing index is resource_already_exists_exception', async () => {
    const err = await failure(client.indices.create({ index: 'books' }));
    expect(err.statusCode).toBe(400);
    expect((err.meta.body as ErrorBody).error.type).toBe('resource_already_exists_exception');
  });

  it('a missing index is index_not_found_exception', async () => {
    const err = await failure(client.indices.get({ index: 'missing-index' }));
    expect(err.statusCode).toBe(404);
    const body = err.meta.body as ErrorBody;
    expect(body.error.type).toBe('index_not_found_exception');
    expect(body.error.reason).toBe('no such index [missing-index]');
    expect(body.error.index).toBe('missing-index');
    expect(body.status).toBe(404);

    const doc = await failure(client.get({ index: 'missing-index', id: '1' }));
    expect(doc.statusCode).toBe(404);
    expect((doc.meta.body as ErrorBody).error.type).toBe('index_not_found_exception');
  });

  it('putMapping and getMapping', async () => {
    const put = await client.indices.putMapping({ index: 'books', body: { properties: { pages: { type: 'long' } } } });
    expect(put.body).toEqual({ acknowledged: true });
    const got = await client.indices.getMapping({ index: 'books' });
    expect(got.body.books?.mappings.properties).toEqual({
      title: { type: 'text' },
      year: { type: 'integer' },
      tag: { type: 'keyword' },
      pages: { type: 'long' },
    });

    // Changing a field's type is refused.
    const err = await failure(client.indices.putMapping({ index: 'books', body: { properties: { year: { type: 'keyword' } } } }));
    expect(err.statusCode).toBe(400);
    expect((err.meta.body as ErrorBody).error.type).toBe('illegal_argument_exception');
  });

  it('putSettings and getSettings', async () => {
    const put = await client.indices.putSettings({ index: 'books', body: { index: { refresh_interval: '5s' } } });
    expect(put.body).toEqual({ acknowledged: true });
    const got = await client.indices.getSettings({ index: 'books' });
    const index = got.body.books?.settings?.index as Record<string, unknown> | undefined;
    expect(index?.refresh_interval).toBe('5s');
    expect(index?.number_of_shards).toBe('2');
    expect(index?.provided_name).toBe('books');
    expect(index?.uuid).toEqual(expect.any(String));

    const err = await failure(client.indices.putSettings({ index: 'books', body: { index: { number_of_shards: 3 } } }));
    expect(err.statusCode).toBe(400);
    expect((err.meta.body as ErrorBody).error.type).toBe('illegal_argument_exception');
  });

  it('close and open', async () => {
    await client.indices.create({ index: 'shelf', body: { settings: { number_of_shards: 1, number_of_replicas: 0 } } });
    await client.index({ index: 'shelf', id: '1', body: { title: 'kept' }, refresh: true });
    const closed = await client.indices.close({ index: 'shelf' });
    expect(closed.body).toEqual({ acknowledged: true, shards_acknowledged: true, indices: { shelf: { closed: true } } });
    const err = await failure(client.search({ index: 'shelf' }));
    expect(err.statusCode).toBe(400);
    expect((err.meta.body as ErrorBody).error).toMatchObject({ type: 'index_closed_exception', reason: 'closed', index: 'shelf' });
    // A static setting changes while closed.
    const put = await client.indices.putSettings({ index: 'shelf', body: { index: { codec: 'best_compression' } } });
    expect(put.body).toEqual({ acknowledged: true });
    const opened = await client.indices.open({ index: 'shelf' });
    expect(opened.body).toEqual({ acknowledged: true, shards_acknowledged: true });
    const got = await client.get({ index: 'shelf', id: '1' });
    expect(got.body._source).toEqual({ title: 'kept' });
    await client.indices.delete({ index: 'shelf' });
  });
});

describe('documents', () => {
  it('index, get, exists, getSource', async () => {
    const first = await client.index({ index: 'books', id: '1', body: { title: 'Dune', year: 1965, tag: 'sf' } });
    expect(first.statusCode).toBe(201);
    expect(first.body).toMatchObject({ _index: 'books', _id: '1', _version: 1, result: 'created', _seq_no: expect.any(Number), _primary_term: 1 });
    expect(first.body._shards).toEqual({ total: 1, successful: 1, failed: 0 });

    const second = await client.index({ index: 'books', id: '1', body: { title: 'Dune', year: 1965, tag: 'classic' } });
    expect(second.statusCode).toBe(200);
    expect(second.body).toMatchObject({ _version: 2, result: 'updated' });
    expect(second.body._seq_no).toBeGreaterThan(first.body._seq_no);

    const auto = await client.index({ index: 'books', body: { title: 'Untitled' } });
    expect(auto.statusCode).toBe(201);
    expect(auto.body._id).toMatch(/^[A-Za-z0-9_-]{20}$/);

    // Realtime GET sees the unrefreshed write.
    const got = await client.get({ index: 'books', id: '1' });
    expect(got.body).toEqual({
      _index: 'books',
      _id: '1',
      _version: 2,
      _seq_no: second.body._seq_no,
      _primary_term: 1,
      found: true,
      _source: { title: 'Dune', year: 1965, tag: 'classic' },
    });
    const filtered = await client.get({ index: 'books', id: '1', _source_includes: 'title' });
    expect(filtered.body._source).toEqual({ title: 'Dune' });

    const missing = await failure(client.get({ index: 'books', id: 'nope' }));
    expect(missing.statusCode).toBe(404);
    expect(missing.meta.body).toEqual({ _index: 'books', _id: 'nope', found: false });

    expect((await client.exists({ index: 'books', id: '1' })).body).toBe(true);
    const notThere = await client.exists({ index: 'books', id: 'nope' });
    expect(notThere.body).toBe(false);
    expect(notThere.statusCode).toBe(404);

    const source = await client.getSource({ index: 'books', id: '1' });
    expect(source.body).toEqual({ title: 'Dune', year: 1965, tag: 'classic' });
  });

  it('create, and a version conflict', async () => {
    const created = await client.create({ index: 'books', id: '2', body: { title: 'Solaris', year: 1961 } });
    expect(created.statusCode).toBe(201);
    expect(created.body).toMatchObject({ _id: '2', _version: 1, result: 'created' });

    const again = await failure(client.create({ index: 'books', id: '2', body: { title: 'Solaris' } }));
    expect(again.statusCode).toBe(409);
    const body = again.meta.body as ErrorBody;
    expect(body.error.type).toBe('version_conflict_engine_exception');
    expect(body.error.reason).toBe('[2]: version conflict, document already exists (current version [1])');
    expect(body.status).toBe(409);

    // Optimistic concurrency with a stale seq_no.
    const stale = await failure(
      client.index({ index: 'books', id: '2', if_seq_no: created.body._seq_no + 100, if_primary_term: 1, body: { title: 'x' } }),
    );
    expect(stale.statusCode).toBe(409);
    expect((stale.meta.body as ErrorBody).error.type).toBe('version_conflict_engine_exception');

    // External versioning.
    const ext = await client.index({ index: 'books', id: '3', version: 10, version_type: 'external', body: { title: 'Ubik' } });
    expect(ext.body._version).toBe(10);
    const older = await failure(client.index({ index: 'books', id: '3', version: 5, version_type: 'external', body: { title: 'Ubik' } }));
    expect(older.statusCode).toBe(409);
    expect((older.meta.body as ErrorBody).error.type).toBe('version_conflict_engine_exception');
  });

  it('update: doc merge, noop, upsert, doc_as_upsert', async () => {
    const merged = await client.update({ index: 'books', id: '2', body: { doc: { tag: 'sf' } } });
    expect(merged.body).toMatchObject({ _id: '2', _version: 2, result: 'updated' });
    expect((await client.getSource({ index: 'books', id: '2' })).body).toEqual({ title: 'Solaris', year: 1961, tag: 'sf' });

    const noop = await client.update({ index: 'books', id: '2', body: { doc: { tag: 'sf' } } });
    expect(noop.body).toMatchObject({ _version: 2, result: 'noop' });

    const upserted = await client.update({ index: 'books', id: '4', body: { doc: { tag: 'x' }, upsert: { title: 'Neuromancer', year: 1984 } } });
    expect(upserted.statusCode).toBe(201);
    expect(upserted.body).toMatchObject({ _version: 1, result: 'created' });
    expect((await client.getSource({ index: 'books', id: '4' })).body).toEqual({ title: 'Neuromancer', year: 1984 });

    const asUpsert = await client.update({ index: 'books', id: '5', body: { doc: { title: 'Hyperion' }, doc_as_upsert: true } });
    expect(asUpsert.body).toMatchObject({ _version: 1, result: 'created' });

    const missing = await failure(client.update({ index: 'books', id: 'nope', body: { doc: { a: 1 } } }));
    expect(missing.statusCode).toBe(404);
    expect((missing.meta.body as ErrorBody).error.type).toBe('document_missing_exception');
  });

  it('delete', async () => {
    const del = await client.delete({ index: 'books', id: '5' });
    expect(del.body).toMatchObject({ _id: '5', _version: 2, result: 'deleted' });
    expect((await client.exists({ index: 'books', id: '5' })).body).toBe(false);

    const again = await failure(client.delete({ index: 'books', id: '5' }));
    expect(again.statusCode).toBe(404);
    expect(again.meta.body).toMatchObject({ _id: '5', result: 'not_found' });
  });

  it('mget', async () => {
    const res = await client.mget({ index: 'books', body: { ids: ['1', '2', 'nope'] } });
    expect(res.body.docs).toHaveLength(3);
    expect(res.body.docs[0]).toMatchObject({ _id: '1', found: true, _version: 2, _source: { tag: 'classic' } });
    expect(res.body.docs[1]).toMatchObject({ _id: '2', found: true, _version: 2 });
    expect(res.body.docs[2]).toEqual({ _index: 'books', _id: 'nope', found: false });

    const across = await client.mget({
      body: {
        docs: [
          { _index: 'books', _id: '4' },
          { _index: 'missing-index', _id: '1' },
        ],
      },
    });
    expect(across.body.docs[0]).toMatchObject({ _index: 'books', _id: '4', found: true });
    expect(across.body.docs[1]).toMatchObject({ _index: 'missing-index', _id: '1', error: { type: 'index_not_found_exception' } });
  });

  it('bulk with mixed successes and failures', async () => {
    const res = await client.bulk({
      index: 'books',
      body: [
        { index: { _id: '10' } },
        { title: 'Foundation', year: 1951 },
        { create: { _id: '10' } },
        { title: 'Foundation again' },
        { update: { _id: '10' } },
        { doc: { tag: 'asimov' } },
        { delete: { _id: '4' } },
        { delete: { _id: 'never' } },
        { index: { _id: '11' } },
        { title: 'Bad', year: 'not a number' },
        { index: { _index: 'other', _id: '1' } },
        { title: 'Auto-created index' },
      ],
    });
    expect(res.statusCode).toBe(200);
    expect(res.body.errors).toBe(true);
    expect(typeof res.body.took).toBe('number');
    const items = res.body.items;
    expect(items).toHaveLength(7);
    expect(items[0]?.index).toMatchObject({ _id: '10', status: 201, result: 'created', _version: 1 });
    expect(items[1]?.create).toMatchObject({ _id: '10', status: 409, error: { type: 'version_conflict_engine_exception' } });
    expect(items[2]?.update).toMatchObject({ _id: '10', status: 200, result: 'updated', _version: 2 });
    expect(items[3]?.delete).toMatchObject({ _id: '4', status: 200, result: 'deleted' });
    expect(items[4]?.delete).toMatchObject({ _id: 'never', status: 404, result: 'not_found' });
    expect(items[5]?.index).toMatchObject({ _id: '11', status: 400, error: { type: 'mapper_parsing_exception' } });
    expect(items[6]?.index).toMatchObject({ _index: 'other', _id: '1', status: 201, result: 'created' });

    expect((await client.getSource({ index: 'books', id: '10' })).body).toEqual({ title: 'Foundation', year: 1951, tag: 'asimov' });
    expect((await client.exists({ index: 'books', id: '11' })).body).toBe(false);
    expect((await client.indices.exists({ index: 'other' })).body).toBe(true);
  });

  it('refresh, flush, count, stats', async () => {
    const refreshed = await client.indices.refresh({ index: 'books' });
    expect(refreshed.body._shards).toEqual({ total: 2, successful: 2, failed: 0 });
    const flushed = await client.indices.flush({ index: 'books' });
    expect(flushed.body._shards).toMatchObject({ successful: 2, failed: 0 });

    // Live docs: 1, 2, 3, auto id, 10.
    const count = await client.count({ index: 'books' });
    expect(count.body.count).toBe(5);
    expect(count.body._shards).toMatchObject({ total: 2, successful: 2, failed: 0 });

    // refresh=true on a write makes it countable at once; it is removed again right after.
    const visible = await client.index({ index: 'books', id: 'tmp', refresh: true, body: { title: 'tmp' } });
    expect(visible.body.forced_refresh).toBe(true);
    expect((await client.count({ index: 'books' })).body.count).toBe(6);
    await client.delete({ index: 'books', id: 'tmp', refresh: true });
    expect((await client.count({ index: 'books' })).body.count).toBe(5);

    const stats = await client.indices.stats({ index: 'books' });
    const primaries = stats.body.indices?.books?.primaries;
    expect(primaries?.docs?.count).toBe(5);
    expect(primaries?.store?.size_in_bytes).toBeGreaterThan(0);
    expect(stats.body._all.primaries.docs?.count).toBe(5);
  });

  it('cat.indices as json', async () => {
    const res = await client.cat.indices({ format: 'json' });
    const rows = res.body as unknown as Array<Record<string, string>>;
    const books = rows.find((r) => r.index === 'books');
    expect(books).toMatchObject({ health: 'green', status: 'open', pri: '2', rep: '0', 'docs.count': '5' });
    expect(books?.uuid).toEqual(expect.any(String));
    expect(rows.map((r) => r.index).sort()).toEqual(['books', 'other']);
  });
});

describe('aliases', () => {
  it('putAlias, getAlias, updateAliases, deleteAlias; an alias works where an index does', async () => {
    const put = await client.indices.putAlias({ index: 'books', name: 'library' });
    expect(put.body).toEqual({ acknowledged: true });

    const got = await client.indices.getAlias({ name: 'library' });
    expect(got.body).toEqual({ books: { aliases: { library: {} } } });

    const viaAlias = await client.get({ index: 'library', id: '1' });
    expect(viaAlias.body).toMatchObject({ _index: 'books', _id: '1', found: true });
    expect((await client.count({ index: 'library' })).body.count).toBe(5);

    const updated = await client.indices.updateAliases({
      body: {
        actions: [{ add: { index: 'other', alias: 'everything' } }, { add: { index: 'books', alias: 'everything' } }, { remove: { index: 'books', alias: 'library' } }],
      },
    });
    expect(updated.body).toEqual({ acknowledged: true });
    const all = await client.indices.getAlias();
    expect(all.body).toEqual({ books: { aliases: { everything: {} } }, other: { aliases: { everything: {} } } });

    // Writing through an alias that points at two indices has no write index.
    const ambiguous = await failure(client.index({ index: 'everything', id: 'z', body: { a: 1 } }));
    expect(ambiguous.statusCode).toBe(400);
    expect((ambiguous.meta.body as ErrorBody).error.type).toBe('illegal_argument_exception');

    const deleted = await client.indices.deleteAlias({ index: 'other', name: 'everything' });
    expect(deleted.body).toEqual({ acknowledged: true });
    expect((await client.indices.getAlias({ index: 'other' })).body).toEqual({ other: { aliases: {} } });

    const missingAlias = await failure(client.indices.deleteAlias({ index: 'other', name: 'everything' }));
    expect(missingAlias.statusCode).toBe(404);
    expect((missingAlias.meta.body as ErrorBody).error.type).toBe('aliases_not_found_exception');
  });
});

describe('search', () => {
  it('search and count through the client', async () => {
    await client.indices.create({
      index: 'lib',
      body: { settings: { number_of_shards: 1 }, mappings: { properties: { title: { type: 'text' }, year: { type: 'long' } } } },
    });
    await client.bulk({
      index: 'lib',
      refresh: true,
      body: [{ index: { _id: 'a' } }, { title: 'the quick fox', year: 2001 }, { index: { _id: 'b' } }, { title: 'a slow dog', year: 1990 }],
    });
    const res = await client.search({ index: 'lib', body: { query: { match: { title: 'fox' } } } });
    expect(res.body.hits.total).toEqual({ value: 1, relation: 'eq' });
    expect(res.body.hits.hits[0]).toMatchObject({ _index: 'lib', _id: 'a', _source: { title: 'the quick fox', year: 2001 } });
    expect(res.body.hits.hits[0]._score).toBeGreaterThan(0);
    const sorted = await client.search({ index: 'lib', body: { sort: [{ year: 'desc' }], _source: false } });
    expect(sorted.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['a', 'b']);
    const count = await client.count({ index: 'lib', body: { query: { range: { year: { lt: 2000 } } } } });
    expect(count.body.count).toBe(1);
    const err = await failure(client.search({ index: 'lib', body: { query: { nope: {} } } }));
    expect((err.meta.body as ErrorBody).error.type).toBe('parsing_exception');
  });

  it('msearch answers each search in its element, a failure beside the others', async () => {
    const res = await client.msearch({
      index: 'lib',
      body: [{}, { query: { match: { title: 'dog' } } }, { index: 'nosuch' }, { query: { match_all: {} } }, { index: 'lib' }, { size: 0 }],
    });
    const [dog, missing, all] = res.body.responses as { status: number; hits?: { total: { value: number }; hits: { _id: string }[] }; error?: { type: string } }[];
    expect(dog?.status).toBe(200);
    expect(dog?.hits?.hits.map((h) => h._id)).toEqual(['b']);
    expect(missing).toMatchObject({ status: 404, error: { type: 'index_not_found_exception' } });
    expect(all?.hits?.total.value).toBe(2);
    const bad = await failure(client.msearch({ index: 'lib', body: [{ zap: 1 }, { size: 0 }] }));
    expect(bad.statusCode).toBe(400);
    expect((bad.meta.body as ErrorBody).error.reason).toBe('key [zap] is not supported in the metadata section');
  });
});

describe('search templates', () => {
  it('stores a template, searches and renders with it, and deletes it', async () => {
    await client.indices.create({ index: 'tpl', body: { mappings: { properties: { tag: { type: 'keyword' }, n: { type: 'integer' } } } } });
    const docs = Array.from({ length: 6 }, (_, i) => [{ index: { _id: String(i + 1) } }, { tag: i % 2 === 0 ? 'even' : 'odd', n: i + 1 }]).flat();
    await client.bulk({ index: 'tpl', refresh: true, body: docs });
    const stored = await client.putScript({
      id: 'by-tag',
      body: { script: { lang: 'mustache', source: { query: { term: { tag: '{{tag}}' } }, sort: [{ n: 'desc' }], size: '{{size}}{{^size}}10{{/size}}' } } },
    });
    expect(stored.body).toEqual({ acknowledged: true });
    const got = await client.getScript({ id: 'by-tag' });
    expect(got.body).toMatchObject({ _id: 'by-tag', found: true, script: { lang: 'mustache', options: { content_type: 'application/json; charset=UTF-8' } } });
    const found = await client.searchTemplate({ index: 'tpl', body: { id: 'by-tag', params: { tag: 'odd', size: 2 } } });
    expect(found.body.hits.hits.map((h: { _id: string }) => h._id)).toEqual(['6', '4']);
    expect(found.body.status).toBe(200);
    const rendered = await client.renderSearchTemplate({ id: 'by-tag', body: { params: { tag: 'x"y' } } });
    expect(rendered.body.template_output).toEqual({ query: { term: { tag: 'x"y' } }, sort: [{ n: 'desc' }], size: '10' });
    const multi = await client.msearchTemplate({
      index: 'tpl',
      body: [{}, { id: 'by-tag', params: { tag: 'even', size: 1 } }, {}, { source: '{"query":{"terms":{"n":{{#toJson}}ns{{/toJson}}}}}', params: { ns: [1, 2] } }, {}, { id: 'nosuch' }],
    });
    const [even, inline, missing] = multi.body.responses as { status: number; hits?: { hits: { _id: string }[] }; error?: { type: string } }[];
    expect(even?.hits?.hits.map((h) => h._id)).toEqual(['5']);
    expect(inline?.hits?.hits.map((h) => h._id).sort()).toEqual(['1', '2']);
    expect(missing).toMatchObject({ status: 404, error: { type: 'resource_not_found_exception' } });
    const deleted = await client.deleteScript({ id: 'by-tag' });
    expect(deleted.body).toEqual({ acknowledged: true });
    const gone = await failure(client.searchTemplate({ index: 'tpl', body: { id: 'by-tag' } }));
    expect(gone.statusCode).toBe(404);
    expect((gone.meta.body as ErrorBody).error.reason).toBe('unable to find script [by-tag] in cluster state');
  });

  it('refuses a template that does not compile with a script_exception', async () => {
    const bad = await failure(client.searchTemplate({ index: 'tpl', body: { source: '{"size": {{#n}} }' } }));
    expect(bad.statusCode).toBe(400);
    expect((bad.meta.body as ErrorBody).error).toMatchObject({ type: 'script_exception', reason: "Failed to close 'n' tag @[query-template:1]" });
  });
});

describe('tasks', () => {
  it('tasks.list, tasks.get and tasks.cancel', async () => {
    const listed = await client.tasks.list({ actions: 'cluster:monitor/tasks/lists', group_by: 'none' });
    const self = (listed.body as unknown as { tasks: { node: string; id: number; action: string }[] }).tasks[0];
    expect(self?.action).toBe('cluster:monitor/tasks/lists');
    const gone = await failure(client.tasks.get({ task_id: `${self?.node}:${self?.id}` }));
    expect(gone.statusCode).toBe(404);
    const cancelled = await client.tasks.cancel({ actions: 'indices:data/read/search' });
    expect(cancelled.body).toEqual({ nodes: {} });
  });
});

describe('scroll and explain', () => {
  it('scroll pages through a pinned view, then clearScroll frees it', async () => {
    await client.indices.create({ index: 'scrolled', body: { settings: { number_of_shards: 2 } } });
    const body = Array.from({ length: 7 }, (_, i) => [{ index: { _id: String(i + 1) } }, { n: i + 1, t: 'hello' }]).flat();
    await client.bulk({ index: 'scrolled', refresh: true, body });
    const first = await client.search({ index: 'scrolled', scroll: '1m', size: 3, body: { sort: [{ n: 'asc' }] } });
    expect(first.body._scroll_id).toEqual(expect.any(String));
    const seen = first.body.hits.hits.map((h: { _id: string }) => h._id);
    // A write after the scroll opened is not seen by its pages.
    await client.index({ index: 'scrolled', id: '99', refresh: true, body: { n: 0, t: 'late' } });
    let id = first.body._scroll_id as string;
    for (;;) {
      const page = await client.scroll({ scroll_id: id, scroll: '1m' });
      if (page.body.hits.hits.length === 0) break;
      seen.push(...page.body.hits.hits.map((h: { _id: string }) => h._id));
      id = page.body._scroll_id;
    }
    expect(seen).toEqual(['1', '2', '3', '4', '5', '6', '7']);
    const cleared = await client.clearScroll({ scroll_id: id });
    expect(cleared.body).toEqual({ succeeded: true, num_freed: 2 });
    const gone = await failure(client.scroll({ scroll_id: id, scroll: '1m' }));
    expect(gone.statusCode).toBe(404);
    expect((gone.meta.body as ErrorBody).error.root_cause?.[0]?.type).toBe('search_context_missing_exception');
  });

  it('explain prints the BM25 explanation tree', async () => {
    const res = await client.explain({ index: 'scrolled', id: '1', body: { query: { match: { t: 'hello' } } } });
    expect(res.body).toMatchObject({ _index: 'scrolled', _id: '1', matched: true });
    const e = res.body.explanation;
    expect(e.description).toMatch(/^weight\(t:hello in \d+\) \[PerFieldSimilarity\], result of:$/);
    expect(e.details[0].description).toBe('score(freq=1.0), computed as boost * idf * tf from:');
    const missing = await failure(client.explain({ index: 'scrolled', id: 'nope', body: { query: { match_all: {} } } }));
    expect(missing.statusCode).toBe(404);
  });
});

describe('delete index', () => {
  it('delete, then it is gone', async () => {
    const res = await client.indices.delete({ index: 'other' });
    expect(res.body).toEqual({ acknowledged: true });
    expect((await client.indices.exists({ index: 'other' })).body).toBe(false);
    const err = await failure(client.indices.delete({ index: 'other' }));
    expect(err.statusCode).toBe(404);
    expect((err.meta.body as ErrorBody).error.type).toBe('index_not_found_exception');
  });

  it('documents survive a restart', async () => {
    await server.restart('kill9');
    const got = await client.get({ index: 'books', id: '10' });
    expect(got.body).toMatchObject({ _version: 2, found: true, _source: { title: 'Foundation', year: 1951, tag: 'asimov' } });
    expect((await client.indices.getAlias({ name: 'everything' })).body).toEqual({ books: { aliases: { everything: {} } } });
  });
});
