import { route, type ActionSpec } from '../../http/action';

export const indicesCreate: ActionSpec = {
  action: 'indices:admin/create',
  routes: [route('PUT', '/:index')],
  params: ['wait_for_active_shards', 'timeout', 'master_timeout', 'cluster_manager_timeout'],
};
