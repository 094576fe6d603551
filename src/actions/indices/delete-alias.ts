import { route, type ActionSpec } from '../../http/action';

export const indicesDeleteAlias: ActionSpec = {
  action: 'indices:admin/aliases',
  engineAction: 'indices:admin/alias/delete',
  routes: [route('DELETE', '/:index/_alias/:name'), route('DELETE', '/:index/_aliases/:name')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout'],
};
