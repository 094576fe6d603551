import { route, type ActionSpec } from '../../http/action';

export const catSegments: ActionSpec = {
  action: 'indices:monitor/segments',
  engineAction: 'cat:segments',
  routes: [route('GET', '/_cat/segments'), route('GET', '/_cat/segments/:index')],
  params: ['format', 'bytes', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 's', 'v'],
  output: 'text',
  helpLeaves: 'index',
};
