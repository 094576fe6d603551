import { route, type ActionSpec } from '../../http/action';

export const clusterPutSettings: ActionSpec = {
  action: 'cluster:admin/settings/update',
  routes: [route('PUT', '/_cluster/settings')],
  params: ['flat_settings', 'master_timeout', 'cluster_manager_timeout', 'timeout'],
};
