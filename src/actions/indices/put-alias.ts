import { route, type ActionSpec } from '../../http/action';

export const indicesPutAlias: ActionSpec = {
  action: 'indices:admin/aliases',
  engineAction: 'indices:admin/alias/put',
  routes: [route('PUT', '/:index/_alias/:name'), route('POST', '/:index/_alias/:name'), route('PUT', '/:index/_aliases/:name'), route('POST', '/:index/_aliases/:name')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout'],
};
