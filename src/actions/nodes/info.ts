import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';
import { infoSections, nodeHeader, observeGc, pick, selectsThisNode, VERSION } from './facts';

// `GET /_nodes[/<node_id>][/<metric>]`: the one node, from process and host facts.
export const nodesInfo: ActionSpec = {
  action: 'cluster:monitor/nodes/info',
  routes: [route('GET', '/_nodes'), route('GET', '/_nodes/:node_id'), route('GET', '/_nodes/:node_id/:metric')],
  params: ['flat_settings', 'timeout'],
  run: (request, node) => {
    observeGc();
    const p = request.params;
    // `GET /_nodes/jvm,os` names metrics, not nodes (OpenSearch tells them apart the same way).
    let nodeId = p.node_id;
    let metric = p.metric;
    if (nodeId && metric === undefined && isMetricList(nodeId)) {
      metric = nodeId;
      nodeId = undefined;
    }
    return Promise.resolve({ status: 200, body: Buffer.from(JSON.stringify(body(node, nodeId, metric))) });
  },
};

const METRICS = new Set(['settings', 'os', 'process', 'jvm', 'thread_pool', 'transport', 'http', 'plugins', 'ingest', 'aggregations', 'indices', 'search_pipelines', '_all', '_none']);
function isMetricList(s: string): boolean {
  return s.split(',').every((m) => METRICS.has(m));
}

function body(node: NodeContext, nodeId: string | undefined, metric: string | undefined): unknown {
  const nodes: Record<string, unknown> = {};
  if (selectsThisNode(node, nodeId)) {
    nodes[node.engine.nodeId] = {
      ...nodeHeader(node),
      version: VERSION,
      build_type: 'tar',
      build_hash: 'unknown',
      total_indexing_buffer: 0,
      ...pick(infoSections(node), metric),
    };
  }
  const n = Object.keys(nodes).length;
  return { _nodes: { total: n, successful: n, failed: 0 }, cluster_name: node.config.cluster.name, nodes };
}
