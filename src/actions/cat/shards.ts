import { route, type ActionSpec } from '../../http/action';

export const catShards: ActionSpec = {
  action: 'cluster:monitor/state',
  engineAction: 'cat:shards',
  routes: [route('GET', '/_cat/shards'), route('GET', '/_cat/shards/:index')],
  params: ['format', 'bytes', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 's', 'v', 'time'],
  output: 'text',
  helpLeaves: 'index',
};
