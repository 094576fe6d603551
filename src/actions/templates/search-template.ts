import { route, type ActionSpec } from '../../http/action';
import { searchSearch } from '../search/search';

export const templatesSearch: ActionSpec = {
  action: 'indices:data/read/search/template',
  routes: [
    route('GET', '/_search/template'),
    route('POST', '/_search/template'),
    route('GET', '/:index/_search/template'),
    route('POST', '/:index/_search/template'),
  ],
  // RestSearchTemplateAction reads a search's parameters as RestSearchAction does (the rendered
  // body then replaces the ones that belong to the body).
  params: searchSearch.params,
  ...(searchSearch.paramsWith !== undefined ? { paramsWith: searchSearch.paramsWith } : {}),
};
