import { route, type ActionSpec } from '../../http/action';

export const searchScroll: ActionSpec = {
  action: 'indices:data/read/scroll',
  cancellable: true,
  routes: [
    route('GET', '/_search/scroll'),
    route('POST', '/_search/scroll'),
    route('GET', '/_search/scroll/:scroll_id'),
    route('POST', '/_search/scroll/:scroll_id'),
  ],
  params: ['scroll', 'scroll_id', 'rest_total_hits_as_int'],
};

export const searchClearScroll: ActionSpec = {
  action: 'indices:data/read/scroll/clear',
  routes: [route('DELETE', '/_search/scroll'), route('DELETE', '/_search/scroll/:scroll_id')],
  params: ['scroll_id'],
};
