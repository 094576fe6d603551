import { route, type ActionSpec } from '../../http/action';

export const indicesPutSettings: ActionSpec = {
  action: 'indices:admin/settings/update',
  routes: [route('PUT', '/_settings'), route('PUT', '/:index/_settings')],
  params: ['master_timeout', 'cluster_manager_timeout', 'timeout', 'preserve_existing', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards', 'flat_settings'],
};
