import { route, type ActionSpec } from '../../http/action';

export const searchExplain: ActionSpec = {
  action: 'indices:data/read/explain',
  routes: [route('GET', '/:index/_explain/:id'), route('POST', '/:index/_explain/:id')],
  paramsWith: { q: ['analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient'] },
  params: ['analyzer', 'analyze_wildcard', 'default_operator', 'df', 'lenient', 'preference', 'q', 'routing', 'stored_fields', '_source', '_source_excludes', '_source_includes'],
};
