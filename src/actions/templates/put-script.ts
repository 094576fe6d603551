import { route, type ActionSpec } from '../../http/action';

export const templatesPutScript: ActionSpec = {
  action: 'cluster:admin/script/put',
  routes: [
    route('PUT', '/_scripts/:id'),
    route('POST', '/_scripts/:id'),
    route('PUT', '/_scripts/:id/:context'),
    route('POST', '/_scripts/:id/:context'),
  ],
  params: ['cluster_manager_timeout', 'context', 'master_timeout', 'timeout'],
};
