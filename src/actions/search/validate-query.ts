import { route, type ActionSpec } from '../../http/action';

export const searchValidateQuery: ActionSpec = {
  action: 'indices:admin/validate/query',
  engineAction: 'indices:data/read/validate/query',
  routes: [
    route('GET', '/_validate/query'),
    route('POST', '/_validate/query'),
    route('GET', '/:index/_validate/query'),
    route('POST', '/:index/_validate/query'),
  ],
  paramsWith: { q: ['analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient'] },
  params: ['all_shards', 'allow_no_indices', 'analyzer', 'analyze_wildcard', 'default_operator', 'df', 'expand_wildcards', 'explain', 'ignore_unavailable', 'lenient', 'q', 'rewrite'],
};
