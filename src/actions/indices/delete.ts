import { route, type ActionSpec } from '../../http/action';

export const indicesDelete: ActionSpec = {
  action: 'indices:admin/delete',
  routes: [route('DELETE', '/:index'), route('DELETE', '/')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
