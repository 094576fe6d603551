import { route, type ActionSpec } from '../../http/action';

export const indicesPutMapping: ActionSpec = {
  action: 'indices:admin/mapping/put',
  routes: [route('PUT', '/:index/_mapping'), route('POST', '/:index/_mapping')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'write_index_only'],
};
