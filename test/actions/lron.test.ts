// Notification settings (`/_plugins/_im/lron`) through app.inject(): create, get, list, upsert
// (with dry_run) and delete, their `_id` rules, and every refusal with index-management's words.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../src/app';
import { loadConfig } from '../../src/config';
import { injectJson, type Json, type JsonAnswer } from '../support/json-call';

let app: App;
let dataDir: string;
let nodeId: string;

beforeAll(() => {
  dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-lron-'));
  app = buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`], env: {}, configDir: dataDir }));
  nodeId = app.node.engine.nodeId;
});

afterAll(async () => {
  await app.close();
  fs.rmSync(dataDir, { recursive: true, force: true });
});

const req = (method: 'GET' | 'PUT' | 'POST' | 'DELETE', url: string, body?: unknown): Promise<JsonAnswer> => injectJson(app, method, url, body);

function error(status: number, type: string, reason: string, extra: Json = {}): { status: number; json: Json } {
  return { status, json: { error: { root_cause: [{ type, reason, ...extra }], type, reason, ...extra }, status } };
}

const LRON = '/_plugins/_im/lron';
const FORCEMERGE_ID = 'LRON:indices:admin/forcemerge';
const FORCEMERGE_PATH = `${LRON}/LRON:indices:admin%2Fforcemerge`;

describe('notification settings', () => {
  it('reads as missing while none was ever written', async () => {
    expect(await req('GET', `${LRON}`)).toEqual({ status: 200, json: { lron_configs: [], total_number: 0 } });
    const missing = error(404, 'index_not_found_exception', 'no such index [.opensearch-control-center]', {
      index: '.opensearch-control-center',
      'resource.id': '.opensearch-control-center',
      'resource.type': 'index_expression',
      index_uuid: '_na_',
    });
    expect(await req('GET', FORCEMERGE_PATH)).toEqual(missing);
    expect(await req('DELETE', FORCEMERGE_PATH)).toEqual(missing);
  });

  it('creates a global setting and a one-time one, and gets and lists them', async () => {
    const global = await req('POST', LRON, { lron_config: { action_name: 'indices:admin/forcemerge', lron_condition: { success: false }, channels: [{ id: 'ops' }] } });
    expect(global).toEqual({
      status: 200,
      json: { _id: FORCEMERGE_ID, lron_config: { lron_condition: { success: false, failure: true }, action_name: 'indices:admin/forcemerge', channels: [{ id: 'ops' }] } },
    });
    const taskId = `${nodeId}:0042`;
    const oneTime = await req('POST', LRON, { lron_config: { channels: [{ id: 'a' }, { id: 'b' }], task_id: taskId, action_name: 'indices:data/write/reindex' } });
    expect(oneTime).toEqual({
      status: 200,
      json: {
        _id: `LRON:${nodeId}:42`,
        lron_config: { lron_condition: { success: true, failure: true }, task_id: `${nodeId}:42`, action_name: 'indices:data/write/reindex', channels: [{ id: 'a' }, { id: 'b' }] },
      },
    });
    expect(await req('GET', FORCEMERGE_PATH)).toEqual({ status: 200, json: { lron_configs: [global.json], total_number: 1 } });
    expect(await req('GET', `${LRON}/LRON:${nodeId}:42`)).toEqual({ status: 200, json: { lron_configs: [oneTime.json], total_number: 1 } });
    // Global settings (priority 100) before one-time ones (200).
    expect(await req('GET', LRON)).toEqual({ status: 200, json: { lron_configs: [global.json, oneTime.json], total_number: 2 } });
    expect((await req('GET', `${LRON}?sortOrder=DESC`)).json.lron_configs).toEqual([oneTime.json, global.json]);
    expect((await req('GET', `${LRON}?sortField=lron_config.action_name`)).json.lron_configs).toEqual([global.json, oneTime.json]);
    expect((await req('GET', `${LRON}?sortField=lron_config.task_id`)).json.lron_configs).toEqual([oneTime.json, global.json]);
    expect(await req('GET', `${LRON}?size=1&from=1`)).toEqual({ status: 200, json: { lron_configs: [oneTime.json], total_number: 2 } });
    const query = (q: string) => req('GET', `${LRON}?queryString=${encodeURIComponent(q)}`);
    expect(await query('lron_config.action_name:indices\\:admin\\/forcemerge')).toEqual({ status: 200, json: { lron_configs: [global.json], total_number: 1 } });
    expect((await query('lron_config.priority:200')).json.lron_configs).toEqual([oneTime.json]);
    expect((await query(`_id:(LRON\\:${nodeId}\\:42 OR LRON\\:indices\\:admin\\/forcemerge)`)).json.total_number).toBe(2);
    expect((await query('lron_config.task_id:*')).json.lron_configs).toEqual([oneTime.json]);
    const unparsable = await query('(');
    expect(unparsable.status).toBe(400);
    expect(unparsable.json.error).toMatchObject({
      type: 'search_phase_execution_exception',
      root_cause: [{ type: 'query_shard_exception', reason: 'Failed to parse query [(]', index: '.opensearch-control-center' }],
      failed_shards: [{ reason: { type: 'query_shard_exception', caused_by: { type: 'parse_exception' } } }],
    });
    expect(await req('POST', LRON, { lron_config: { action_name: 'indices:admin/forcemerge', channels: [{ id: 'x' }] } })).toEqual(
      error(409, 'version_conflict_engine_exception', `[${FORCEMERGE_ID}]: version conflict, document already exists (current version [1])`, {
        index: '.opensearch-control-center',
        shard: '0',
        index_uuid: expect.stringMatching(/^[A-Za-z0-9_-]{22}$/),
      }),
    );
  });

  it('upserts with PUT, checks with dry_run, and deletes', async () => {
    const body = { lron_config: { action_name: 'indices:admin/open', lron_condition: { success: false, failure: false }, channels: [] } };
    const dry = await req('PUT', `${LRON}/LRON:indices:admin%2Fopen?dry_run=true`, body);
    expect(dry).toEqual({ status: 200, json: { _id: 'LRON:indices:admin/open', lron_config: { lron_condition: { success: false, failure: false }, action_name: 'indices:admin/open', channels: [] } } });
    expect((await req('GET', `${LRON}/LRON:indices:admin%2Fopen`)).status).toBe(404);
    expect(await req('PUT', `${LRON}/LRON:indices:admin%2Fopen`, body)).toEqual(dry);
    const replaced = await req('PUT', `${LRON}/LRON:indices:admin%2Fopen`, { lron_config: { action_name: 'indices:admin/open', channels: [{ id: 'c' }] } });
    expect(replaced.json.lron_config).toEqual({ lron_condition: { success: true, failure: true }, action_name: 'indices:admin/open', channels: [{ id: 'c' }] });
    expect((await req('GET', `${LRON}/LRON:indices:admin%2Fopen`)).json.lron_configs).toEqual([replaced.json]);
    const deleted = await req('DELETE', `${LRON}/LRON:indices:admin%2Fopen`);
    expect(deleted).toEqual({
      status: 200,
      json: {
        _index: '.opensearch-control-center',
        _id: 'LRON:indices:admin/open',
        _version: 3,
        result: 'deleted',
        forced_refresh: true,
        _shards: { total: 2, successful: 1, failed: 0 },
        _seq_no: deleted.json._seq_no,
        _primary_term: 1,
      },
    });
    const again = await req('DELETE', `${LRON}/LRON:indices:admin%2Fopen`);
    expect(again.status).toBe(404);
    expect(again.json).toMatchObject({ _id: 'LRON:indices:admin/open', result: 'not_found', _version: 1 });
    expect(again.json._seq_no).toBe(deleted.json._seq_no + 1);
    expect(await req('GET', `${LRON}/LRON:indices:admin%2Fopen`)).toEqual(error(404, 'status_exception', 'lronConfig LRON:indices:admin/open not found'));
  });

  it('refuses bad settings with the plugin’s words', async () => {
    const post = (lron_config: unknown) => req('POST', LRON, { lron_config });
    const illegal = (reason: string) => error(400, 'illegal_argument_exception', reason);
    expect(await post({ channels: [{ id: 'a' }] })).toEqual(illegal('LRONConfig must contain taskID or actionName'));
    expect(await post({ action_name: 'indices:data/read/search', channels: [{ id: 'a' }] })).toEqual(
      illegal('Invalid action name. All supported actions: [indices:data/write/reindex, indices:admin/resize, indices:admin/forcemerge, indices:admin/open]'),
    );
    expect(await post({ action_name: 'indices:admin/resize' })).toEqual(illegal('Enabled LRONConfig must contain at least one channel'));
    expect(await post({ action_name: 'indices:admin/resize', channels: [] })).toEqual(illegal('Enabled LRONConfig must contain at least one channel'));
    expect(await post({ action_name: 'indices:admin/resize', color: 'red' })).toEqual(illegal('Invalid field: [color] found in LRONConfig.'));
    expect(await post({ action_name: 'indices:admin/resize', lron_condition: { sometimes: true } })).toEqual(illegal('Invalid field: [sometimes] found in LRONCondition.'));
    expect(await post({ task_id: 'abc', channels: [{ id: 'a' }] })).toEqual(illegal('malformed task id abc'));
    expect((await post({ task_id: `${nodeId}:x1`, channels: [{ id: 'a' }] })).json.error.caused_by).toEqual({ type: 'number_format_exception', reason: 'For input string: "x1"' });
    expect(await post({ task_id: 'elsewhere:1', channels: [{ id: 'a' }] })).toEqual(illegal('Illegal taskID. NodeID not exists.'));
    expect(await post({ action_name: 'indices:admin/resize', channels: [{ id: '' }] })).toEqual(illegal('Channel ID cannot be empty'));
    expect(await post({ action_name: 'indices:admin/resize', channels: [{}] })).toEqual(illegal('Channel ID is null'));
    expect(await post({ action_name: 'indices:admin/resize', channels: [{ id: 'a', name: 'n' }] })).toEqual(
      error(500, 'illegal_state_exception', 'Unexpected field: name, while parsing Channel destination'),
    );
    expect(await post({ action_name: 'indices:admin/resize', lron_condition: { success: 'yes' }, channels: [{ id: 'a' }] })).toEqual(
      illegal('Failed to parse value [yes] as only [true] or [false] are allowed.'),
    );
    expect(await req('PUT', `${LRON}/LRON:indices:admin%2Fresize?dry_run=true`, { lron_config: { action_name: 'indices:admin/open', channels: [{ id: 'a' }] } })).toEqual(
      illegal("docId isn't match with lron_config"),
    );
    expect(await req('PUT', `${LRON}/LRON:other:1?dry_run=true`, { lron_config: { task_id: 'other:1', channels: [{ id: 'a' }] } })).toEqual(illegal('Illegal taskID. NodeID not exists.'));
    expect((await req('GET', `${LRON}?dry_run=true`)).json.error.reason).toBe(`request [${LRON}] contains unrecognized parameter: [dry_run]`);
  });

  it('refuses malformed bodies and ids', async () => {
    const parsing = (reason: string, line: number, col: number) => error(400, 'parsing_exception', `Failed to parse object: expecting token of type [${reason}`, { line, col });
    expect(await req('POST', LRON, '{}')).toEqual(parsing('FIELD_NAME] but found [END_OBJECT]', 1, 2));
    expect(await req('POST', LRON, '{"lron_config": 1}')).toEqual(parsing('START_OBJECT] but found [VALUE_NUMBER]', 1, 17));
    expect(await req('POST', LRON, '{"lron_config": {"action_name": "indices:admin/open", "channels": [{"id": "a"}]}, "more": 1}')).toEqual(
      parsing('END_OBJECT] but found [FIELD_NAME]', 1, 83),
    );
    expect((await req('POST', LRON, '{"lron_config": {')).json.error.type).toBe('json_e_o_f_exception');
    const empty = await app.fastify.inject({ method: 'POST', url: LRON });
    expect(JSON.parse(empty.body)).toEqual(error(400, 'parse_exception', 'request body is required').json);
    const invalidId = error(400, 'action_request_validation_exception', 'Validation Failed: 1: Invalid LRONConfig ID;');
    expect(await req('GET', `${LRON}/indices:admin%2Fforcemerge`)).toEqual(invalidId);
    expect(await req('DELETE', `${LRON}/42`)).toEqual(invalidId);
    expect((await req('POST', `${LRON}/LRON:x`, {})).status).toBe(405);
    expect((await req('PUT', LRON, {})).status).toBe(405);
  });

  it('refuses bad list parameters as the search does', async () => {
    expect(await req('GET', `${LRON}?sortOrder=sideways`)).toEqual(error(400, 'illegal_argument_exception', 'Unknown SortOrder [sideways]'));
    expect(await req('GET', `${LRON}?from=-1`)).toEqual(error(400, 'illegal_argument_exception', '[from] parameter cannot be negative, found [-1]'));
    expect(await req('GET', `${LRON}?size=-2`)).toEqual(error(400, 'illegal_argument_exception', '[size] parameter cannot be negative, found [-2]'));
    expect((await req('GET', `${LRON}?size=ten`)).json.error.reason).toBe('Failed to parse int parameter [size] with value [ten]');
    const sorted = await req('GET', `${LRON}?sortField=lron_config.bogus`);
    expect(sorted.status).toBe(400);
    expect(sorted.json.error).toMatchObject({
      root_cause: [{ type: 'query_shard_exception', reason: 'No mapping found for [lron_config.bogus] in order to sort on', index: '.opensearch-control-center' }],
      type: 'search_phase_execution_exception',
      reason: 'all shards failed',
      phase: 'query',
      grouped: true,
      failed_shards: [{ shard: 0, index: '.opensearch-control-center', node: nodeId, reason: { type: 'query_shard_exception' } }],
    });
    expect((await req('GET', `${LRON}?sortField=lron_config.channels.id`)).json.error.root_cause[0].reason).toBe(
      'it is mandatory to set the [nested] context on the nested sort field: [lron_config.channels.id].',
    );
  });
});
