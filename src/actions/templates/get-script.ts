import { route, type ActionSpec } from '../../http/action';

export const templatesGetScript: ActionSpec = {
  action: 'cluster:admin/script/get',
  routes: [route('GET', '/_scripts/:id')],
  params: ['cluster_manager_timeout', 'master_timeout'],
};
