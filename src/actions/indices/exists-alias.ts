import { route, type ActionSpec } from '../../http/action';

export const indicesExistsAlias: ActionSpec = {
  action: 'indices:admin/aliases/get',
  engineAction: 'indices:admin/aliases/exists',
  routes: [route('HEAD', '/_alias/:name'), route('HEAD', '/:index/_alias/:name')],
  params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local'],
};
