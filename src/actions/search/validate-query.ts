import { route, type ActionSpec } from '../../http/action';
import { QUERY_STRING_PARAMS } from './query-string-params';

export const searchValidateQuery: ActionSpec = {
  action: 'indices:admin/validate/query',
  engineAction: 'indices:data/read/validate/query',
  routes: [
    route('GET', '/_validate/query'),
    route('POST', '/_validate/query'),
    route('GET', '/:index/_validate/query'),
    route('POST', '/:index/_validate/query'),
  ],
  paramsWith: QUERY_STRING_PARAMS,
  params: ['all_shards', 'allow_no_indices', 'expand_wildcards', 'explain', 'ignore_unavailable', 'q', 'rewrite'],
};
