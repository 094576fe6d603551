import { route, type ActionSpec } from '../../http/action';

export const documentIndex: ActionSpec = {
  action: 'indices:data/write/index',
  routes: [route('PUT', '/:index/_doc/:id'), route('POST', '/:index/_doc/:id'), route('POST', '/:index/_doc')],
  params: ['wait_for_active_shards', 'op_type', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'if_seq_no', 'if_primary_term', 'pipeline', 'require_alias'],
};
