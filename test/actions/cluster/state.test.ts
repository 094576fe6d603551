// _cluster/state: the node's own sections, the version that follows changes, the graveyard of
// deleted indices across a restart, and wait_for_metadata_version waiting on the event loop.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { buildApp, type App } from '../../../src/app';
import { loadConfig } from '../../../src/config';

const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-state-'));
afterAll(() => fs.rmSync(dataDir, { recursive: true, force: true }));

function open(): App {
  return buildApp(loadConfig({ argv: ['-E', 'plugins.security.disabled=true', '-E', `path.data=${dataDir}`, '-E', 'cluster.name=c1'], env: {}, configDir: dataDir }));
}

async function call(app: App, method: 'GET' | 'PUT' | 'DELETE', url: string, payload?: unknown) {
  const res = await app.fastify.inject({ method, url, ...(payload === undefined ? {} : { payload: payload as object }) });
  return { status: res.statusCode, json: JSON.parse(res.body) as Record<string, any> };
}

describe('cluster state', () => {
  it('shows this node, and a version that moves only when the state does', async () => {
    const app = open();
    try {
      const id = app.node.engine.nodeId;
      const all = (await call(app, 'GET', '/_cluster/state')).json;
      expect(Object.keys(all)).toEqual(['cluster_name', 'cluster_uuid', 'version', 'state_uuid', 'master_node', 'cluster_manager_node', 'blocks', 'nodes', 'metadata', 'routing_table', 'routing_nodes']);
      expect(all).toMatchObject({ cluster_name: 'c1', cluster_uuid: app.node.engine.clusterUuid, master_node: id, cluster_manager_node: id });
      expect(all.nodes).toEqual({ [id]: { name: expect.any(String), ephemeral_id: expect.stringMatching(/^[\w-]{22}$/), transport_address: '127.0.0.1:9300', attributes: { shard_indexing_pressure_enabled: 'true' } } });
      expect(all.metadata.cluster_coordination).toEqual({ term: 1, last_committed_config: [id], last_accepted_config: [id], voting_config_exclusions: [] });

      const v1 = (await call(app, 'GET', '/_cluster/state/version')).json;
      expect((await call(app, 'GET', '/_cluster/state/version')).json).toEqual(v1);
      await call(app, 'PUT', '/s1');
      const v2 = (await call(app, 'GET', '/_cluster/state/version')).json;
      expect(v2.version).toBe(v1.version + 1);
      expect(v2.state_uuid).not.toBe(v1.state_uuid);
      await call(app, 'PUT', '/_scripts/t', { script: { lang: 'mustache', source: { query: { match_all: {} } } } });
      expect((await call(app, 'GET', '/_cluster/state/version')).json.version).toBe(v2.version + 1);
    } finally {
      await app.close();
    }
  });

  it('waits for a metadata version on a timer, and says when it gave up', async () => {
    const app = open();
    try {
      const { version } = (await call(app, 'GET', '/_cluster/state/version')).json;
      const reached = await call(app, 'GET', `/_cluster/state/version?wait_for_metadata_version=${version}`);
      expect(reached.json).toMatchObject({ wait_for_timed_out: false, version });
      const later = call(app, 'GET', `/_cluster/state/metadata?wait_for_metadata_version=${version + 1}&wait_for_timeout=5s&filter_path=wait_for_timed_out,metadata.indices.*.state`);
      // The engine is free meanwhile: the change the waiter needs goes through.
      expect((await call(app, 'PUT', '/s2')).status).toBe(200);
      expect((await later).json).toEqual({ wait_for_timed_out: false, metadata: { indices: { s1: { state: 'open' }, s2: { state: 'open' } } } });
      const started = Date.now();
      const gaveUp = await call(app, 'GET', `/_cluster/state?wait_for_metadata_version=${version + 100}&wait_for_timeout=200ms`);
      expect(Date.now() - started).toBeGreaterThanOrEqual(190);
      expect(gaveUp).toEqual({ status: 200, json: { wait_for_timed_out: true } });
    } finally {
      await app.close();
    }
  });

  it('keeps a tombstone for each deleted index, across a restart', async () => {
    let app = open();
    const uuid = (await call(app, 'GET', '/s1/_settings')).json.s1.settings.index.uuid as string;
    const before = Date.now();
    expect((await call(app, 'DELETE', '/s1')).status).toBe(200);
    await app.close();
    app = open();
    try {
      const graveyard = (await call(app, 'GET', '/_cluster/state/metadata')).json.metadata['index-graveyard'];
      expect(graveyard.tombstones).toEqual([{ index: { index_name: 's1', index_uuid: uuid }, delete_date_in_millis: expect.any(Number) }]);
      expect(graveyard.tombstones[0].delete_date_in_millis).toBeGreaterThanOrEqual(before);
      // A state cut down to some indices starts an empty graveyard, as OpenSearch's does.
      expect((await call(app, 'GET', '/_cluster/state/metadata/s2')).json.metadata['index-graveyard']).toEqual({ tombstones: [] });
    } finally {
      await app.close();
    }
  });
});
