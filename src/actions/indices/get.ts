import { route, type ActionSpec } from '../../http/action';

export const indicesGet: ActionSpec = {
  action: 'indices:admin/get',
  routes: [route('GET', '/:index')],
  params: ['local', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings', 'include_defaults', 'master_timeout', 'cluster_manager_timeout'],
};
