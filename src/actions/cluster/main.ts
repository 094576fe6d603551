import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';
import { shapeResponse } from '../../http/pretty';

const OPENSEARCH_VERSION = '2.19.1';

export const clusterMain: ActionSpec = {
  action: 'cluster:monitor/main',
  routes: [route('GET', '/'), route('HEAD', '/')],
  params: [],
  prettyByDefault: true,
  run: (request, node) => ({ status: 200, body: mainBody(node, request.pretty) }),
};

// Built once per node, compact and pretty: the answer never changes while the process runs.
const cache = new WeakMap<NodeContext, { compact: Buffer; pretty: Buffer }>();

function mainBody(node: NodeContext, pretty: boolean): Buffer {
  let cached = cache.get(node);
  if (cached === undefined) {
    cached = render(node);
    cache.set(node, cached);
  }
  return pretty ? cached.pretty : cached.compact;
}

function render(node: NodeContext): { compact: Buffer; pretty: Buffer } {
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
  const compact = Buffer.from(JSON.stringify(body));
  return { compact, pretty: shapeResponse(compact, { pretty: true, filterPath: undefined }) };
}
