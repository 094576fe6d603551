import { route, type ActionSpec } from '../../http/action';

export const indicesGetMapping: ActionSpec = {
  action: 'indices:admin/mappings/get',
  routes: [route('GET', '/_mapping'), route('GET', '/:index/_mapping')],
  params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'master_timeout', 'cluster_manager_timeout', 'local'],
};
