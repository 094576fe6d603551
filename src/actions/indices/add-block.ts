import { route, type ActionSpec } from '../../http/action';

// `PUT /<index>/_block/<block>`: adds `write`, `read`, `read_only` or `metadata` to the indices
// (the engine answers which ones it newly blocked).
export const indicesAddBlock: ActionSpec = {
  action: 'indices:admin/block/add',
  routes: [route('PUT', '/:index/_block/:block')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'],
};
