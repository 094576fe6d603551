import { route, type ActionSpec } from '../../http/action';

export const clusterGetSettings: ActionSpec = {
  action: 'cluster:monitor/settings',
  routes: [route('GET', '/_cluster/settings')],
  params: ['flat_settings', 'include_defaults', 'local', 'master_timeout', 'cluster_manager_timeout', 'timeout'],
};
