import { route, type ActionSpec } from '../../http/action';

// `POST /<target>/_close`: the engine commits and releases each index's shards and records the
// closed state; `POST /_close` (no target) is refused there as OpenSearch's validation does.
export const indicesClose: ActionSpec = {
  action: 'indices:admin/close',
  routes: [route('POST', '/_close'), route('POST', '/:index/_close')],
  params: ['timeout', 'master_timeout', 'cluster_manager_timeout', 'wait_for_active_shards', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'ignore_throttled'],
};
