import { route, type ActionSpec } from '../../http/action';

export const indicesRefresh: ActionSpec = {
  action: 'indices:admin/refresh',
  routes: [route('POST', '/_refresh'), route('GET', '/_refresh'), route('POST', '/:index/_refresh'), route('GET', '/:index/_refresh')],
  params: ['ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
