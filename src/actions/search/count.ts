import { route, type ActionSpec } from '../../http/action';

export const searchCount: ActionSpec = {
  action: 'indices:data/read/search',
  engineAction: 'indices:data/read/count',
  routes: [route('GET', '/_count'), route('POST', '/_count'), route('GET', '/:index/_count'), route('POST', '/:index/_count')],
  paramsWith: { q: ['analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient'] },
  params: ['ignore_unavailable', 'ignore_throttled', 'allow_no_indices', 'expand_wildcards', 'min_score', 'preference', 'routing', 'q', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'terminate_after'],
};
