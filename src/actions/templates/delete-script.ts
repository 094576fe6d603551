import { route, type ActionSpec } from '../../http/action';

export const templatesDeleteScript: ActionSpec = {
  action: 'cluster:admin/script/delete',
  routes: [route('DELETE', '/_scripts/:id')],
  params: ['cluster_manager_timeout', 'master_timeout', 'timeout'],
};
