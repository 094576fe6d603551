import { route, type ActionSpec } from '../../http/action';

export const indicesStats: ActionSpec = {
  action: 'indices:monitor/stats',
  routes: [route('GET', '/_stats'), route('GET', '/_stats/:metric'), route('GET', '/:index/_stats'), route('GET', '/:index/_stats/:metric')],
  params: ['completion_fields', 'fielddata_fields', 'fields', 'groups', 'level', 'include_segment_file_sizes', 'include_unloaded_segments', 'expand_wildcards', 'forbid_closed_indices'],
};
