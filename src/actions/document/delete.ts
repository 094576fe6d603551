import { route, type ActionSpec } from '../../http/action';

export const documentDelete: ActionSpec = {
  action: 'indices:data/write/delete',
  routes: [route('DELETE', '/:index/_doc/:id')],
  params: ['wait_for_active_shards', 'refresh', 'routing', 'timeout', 'if_seq_no', 'if_primary_term', 'version', 'version_type'],
};
