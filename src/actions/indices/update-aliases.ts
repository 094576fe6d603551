import { route, type ActionSpec } from '../../http/action';

export const indicesUpdateAliases: ActionSpec = {
  action: 'indices:admin/aliases',
  routes: [route('POST', '/_aliases')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout'],
};
