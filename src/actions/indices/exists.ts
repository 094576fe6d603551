import { route, type ActionSpec } from '../../http/action';

export const indicesExists: ActionSpec = {
  action: 'indices:admin/get',
  engineAction: 'indices:admin/exists',
  routes: [route('HEAD', '/:index')],
  params: ['local', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings', 'include_defaults'],
};
