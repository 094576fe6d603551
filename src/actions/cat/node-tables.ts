// `_cat` tables about the node: the engine renders them from its own state and the process's
// facts (`node-facts.ts`), sent as the body of its `cat:*` action.
import { route, type ActionSpec, type HttpMethod } from '../../http/action';
import type { NodeContext } from '../../node-context';
import { factsBody } from './node-facts';

const COMMON = ['format', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 's', 'v'] as const;

function nodeTable(action: string, engineAction: string, paths: readonly string[], params: readonly string[], helpLeaves?: string): ActionSpec {
  const method: HttpMethod = 'GET';
  return {
    action,
    routes: paths.map((p) => route(method, p)),
    params: [...COMMON, ...params],
    output: 'text',
    ...(helpLeaves === undefined ? {} : { helpLeaves }),
    run: (request, node: NodeContext) => node.engine.execute(engineAction, request.params, factsBody(node)),
  };
}

export const catNodes = nodeTable('cluster:monitor/nodes/stats', 'cat:nodes', ['/_cat/nodes'], ['bytes', 'full_id', 'time', 'include_unloaded_segments']);
export const catAllocation = nodeTable('cluster:monitor/nodes/stats', 'cat:allocation', ['/_cat/allocation', '/_cat/allocation/:node_id'], ['bytes'], 'nodes');
export const catClusterManager = nodeTable('cluster:monitor/state', 'cat:cluster_manager', ['/_cat/cluster_manager', '/_cat/master'], []);
export const catNodeattrs = nodeTable('cluster:monitor/nodes/info', 'cat:nodeattrs', ['/_cat/nodeattrs'], []);
export const catPlugins = nodeTable('cluster:monitor/nodes/info', 'cat:plugins', ['/_cat/plugins'], []);
export const catThreadPool = nodeTable('cluster:monitor/nodes/stats', 'cat:thread_pool', ['/_cat/thread_pool', '/_cat/thread_pool/:thread_pool_patterns'], ['size']);
