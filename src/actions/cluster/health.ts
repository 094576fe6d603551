import { route, type ActionSpec } from '../../http/action';

export const clusterHealth: ActionSpec = {
  action: 'cluster:monitor/health',
  routes: [route('GET', '/_cluster/health'), route('GET', '/_cluster/health/:index')],
  params: ['expand_wildcards', 'level', 'local', 'master_timeout', 'cluster_manager_timeout', 'timeout', 'wait_for_active_shards', 'wait_for_nodes', 'wait_for_events', 'wait_for_no_relocating_shards', 'wait_for_no_initializing_shards', 'wait_for_status', 'awareness_attribute', 'ensure_node_commissioned'],
};
