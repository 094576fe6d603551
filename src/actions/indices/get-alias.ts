import { route, type ActionSpec } from '../../http/action';

export const indicesGetAlias: ActionSpec = {
  action: 'indices:admin/aliases/get',
  routes: [route('GET', '/_alias'), route('GET', '/_alias/:name'), route('GET', '/:index/_alias'), route('GET', '/:index/_alias/:name')],
  params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'local'],
};
