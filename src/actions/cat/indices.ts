import { route, type ActionSpec } from '../../http/action';

export const catIndices: ActionSpec = {
  action: 'cluster:monitor/state',
  engineAction: 'cat:indices',
  routes: [route('GET', '/_cat/indices'), route('GET', '/_cat/indices/:index')],
  params: ['format', 'bytes', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 'health', 's', 'v', 'pri', 'time', 'expand_wildcards', 'include_unloaded_segments'],
  output: 'text',
  helpLeaves: 'index',
};
