import { route, type ActionSpec } from '../../http/action';
import type { NodeContext } from '../../node-context';
import { nodeHeader, observeGc, pick, selectsThisNode, statsSections } from './facts';

// `GET /_nodes[/<node_id>]/stats[/<metric>[/<index_metric>]]`: process and host facts, and the
// `indices` section from the engine's `_stats` totals (docs, store, indexing, search, ...).
export const nodesStats: ActionSpec = {
  action: 'cluster:monitor/nodes/stats',
  routes: [
    route('GET', '/_nodes/stats'),
    route('GET', '/_nodes/stats/:metric'),
    route('GET', '/_nodes/stats/:metric/:index_metric'),
    route('GET', '/_nodes/:node_id/stats'),
    route('GET', '/_nodes/:node_id/stats/:metric'),
    route('GET', '/_nodes/:node_id/stats/:metric/:index_metric'),
  ],
  params: ['completion_fields', 'fielddata_fields', 'fields', 'groups', 'level', 'types', 'timeout', 'include_segment_file_sizes'],
  run: async (request, node) => {
    observeGc();
    const p = request.params;
    const nodes: Record<string, unknown> = {};
    if (selectsThisNode(node, p.node_id)) {
      const indices = await indicesTotals(node);
      nodes[node.engine.nodeId] = { ...nodeHeader(node), ...pick(statsSections(indices), p.metric, ['timestamp']) };
    }
    const n = Object.keys(nodes).length;
    return { status: 200, body: Buffer.from(JSON.stringify({ _nodes: { total: n, successful: n, failed: 0 }, cluster_name: node.config.cluster.name, nodes })) };
  },
};

async function indicesTotals(node: NodeContext): Promise<Record<string, unknown>> {
  try {
    const r = await node.engine.execute('indices:monitor/stats', {});
    if (r.status !== 200) return {};
    const s = JSON.parse(r.body.toString('utf8')) as { _all?: { total?: Record<string, unknown> } };
    return s._all?.total ?? {};
  } catch {
    return {};
  }
}
