import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';

const OPENSEARCH_VERSION = '2.19.1';

export const clusterMain: ActionSpec = {
  action: 'cluster:monitor/main',
  routes: [route('GET', '/'), route('HEAD', '/')],
  params: [],
  run: (_request, node) => Promise.resolve({ status: 200, body: mainBody(node) }),
};

// Built once per node: the answer never changes while the process runs.
const cache = new WeakMap<NodeContext, Buffer>();

function mainBody(node: NodeContext): Buffer {
  const cached = cache.get(node);
  if (cached !== undefined) return cached;
  // Tools that gate on the version can be told the OpenSearch version Quarry emulates.
  const override = node.config.compatibility.overrideMainResponseVersion;
  const body = {
    name: node.config.node.name,
    cluster_name: node.config.cluster.name,
    cluster_uuid: node.engine.clusterUuid,
    version: {
      distribution: override ? 'opensearch' : 'quarry',
      number: override ? OPENSEARCH_VERSION : '0.13.0',
      build_type: 'tar',
      build_hash: 'unknown',
      build_date: '2026-11-22T00:00:00.000000Z',
      build_snapshot: false,
      lucene_version: '9.12.1',
      minimum_wire_compatibility_version: '7.10.0',
      minimum_index_compatibility_version: '7.0.0',
    },
    tagline: 'The OpenSearch Project: https://opensearch.org/',
  };
  const bytes = Buffer.from(JSON.stringify(body));
  cache.set(node, bytes);
  return bytes;
}
