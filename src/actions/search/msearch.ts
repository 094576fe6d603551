import { route, type ActionSpec } from '../../http/action';

export const searchMulti: ActionSpec = {
  action: 'indices:data/read/msearch',
  cancellable: true,
  routes: [route('GET', '/_msearch'), route('POST', '/_msearch'), route('GET', '/:index/_msearch'), route('POST', '/:index/_msearch')],
  // As RestMultiSearchAction reads them; the rest of a search's options go in its metadata line.
  params: [
    'allow_no_indices',
    'cancel_after_time_interval',
    'ccs_minimize_roundtrips',
    'expand_wildcards',
    'ignore_throttled',
    'ignore_unavailable',
    'max_concurrent_searches',
    'max_concurrent_shard_requests',
    'pre_filter_shard_size',
    'rest_total_hits_as_int',
    'routing',
    'search_type',
    'typed_keys',
  ],
};
