import { route, type ActionSpec } from '../../http/action';

export const indicesFlush: ActionSpec = {
  action: 'indices:admin/flush',
  routes: [route('POST', '/_flush'), route('GET', '/_flush'), route('POST', '/:index/_flush'), route('GET', '/:index/_flush')],
  params: ['force', 'wait_if_ongoing', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
