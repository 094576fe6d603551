import { route, type ActionSpec } from '../../http/action';
import { QUERY_STRING_PARAMS } from './query-string-params';

export const searchExplain: ActionSpec = {
  action: 'indices:data/read/explain',
  routes: [route('GET', '/:index/_explain/:id'), route('POST', '/:index/_explain/:id')],
  paramsWith: QUERY_STRING_PARAMS,
  params: ['preference', 'q', 'routing', 'stored_fields', '_source', '_source_excludes', '_source_includes'],
};
