import { route, type ActionSpec } from '../../http/action';
import { QUERY_STRING_PARAMS } from './query-string-params';

export const searchCount: ActionSpec = {
  action: 'indices:data/read/search',
  cancellable: true,
  engineAction: 'indices:data/read/count',
  routes: [route('GET', '/_count'), route('POST', '/_count'), route('GET', '/:index/_count'), route('POST', '/:index/_count')],
  paramsWith: QUERY_STRING_PARAMS,
  params: ['ignore_unavailable', 'ignore_throttled', 'allow_no_indices', 'expand_wildcards', 'min_score', 'preference', 'routing', 'q', 'terminate_after'],
};
