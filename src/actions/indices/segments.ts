import { route, type ActionSpec } from '../../http/action';

// `GET [/<target>]/_segments`: every primary's searchable segments (tantivy's segment metas).
export const indicesSegments: ActionSpec = {
  action: 'indices:monitor/segments',
  routes: [route('GET', '/_segments'), route('GET', '/:index/_segments')],
  params: ['verbose', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
