import { route, type ActionSpec } from '../../http/action';

export const indicesGetSettings: ActionSpec = {
  action: 'indices:monitor/settings/get',
  routes: [route('GET', '/_settings'), route('GET', '/_settings/:name'), route('GET', '/:index/_settings'), route('GET', '/:index/_settings/:name')],
  params: ['master_timeout', 'cluster_manager_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings', 'local', 'include_defaults'],
};
