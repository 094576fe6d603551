import { route, type ActionSpec } from '../../http/action';

export const templatesMultiSearch: ActionSpec = {
  action: 'indices:data/read/msearch/template',
  routes: [
    route('GET', '/_msearch/template'),
    route('POST', '/_msearch/template'),
    route('GET', '/:index/_msearch/template'),
    route('POST', '/:index/_msearch/template'),
  ],
  // As RestMultiSearchTemplateAction reads them (fewer than _msearch takes).
  params: ['ccs_minimize_roundtrips', 'max_concurrent_searches', 'rest_total_hits_as_int', 'routing', 'search_type', 'typed_keys'],
};
