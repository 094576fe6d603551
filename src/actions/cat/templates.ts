import { route, type ActionSpec } from '../../http/action';

export const catTemplates: ActionSpec = {
  action: 'cluster:monitor/state',
  engineAction: 'cat:templates',
  routes: [route('GET', '/_cat/templates'), route('GET', '/_cat/templates/:name')],
  params: ['format', 'local', 'master_timeout', 'cluster_manager_timeout', 'h', 'help', 's', 'v'],
  output: 'text',
  helpLeaves: 'name',
};
