import { route, type ActionSpec } from '../../http/action';

export const catRecovery: ActionSpec = {
  action: 'indices:monitor/recovery',
  engineAction: 'cat:recovery',
  routes: [route('GET', '/_cat/recovery'), route('GET', '/_cat/recovery/:index')],
  params: ['format', 'active_only', 'bytes', 'detailed', 'h', 'help', 'master_timeout', 'cluster_manager_timeout', 's', 'time', 'v'],
  output: 'text',
  helpLeaves: 'index',
};
