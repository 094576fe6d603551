import { route, type ActionSpec } from '../../http/action';

export const documentUpdate: ActionSpec = {
  action: 'indices:data/write/update',
  routes: [route('POST', '/:index/_update/:id')],
  params: ['wait_for_active_shards', '_source', '_source_excludes', '_source_includes', 'lang', 'version', 'version_type', 'refresh', 'retry_on_conflict', 'routing', 'timeout', 'if_seq_no', 'if_primary_term', 'require_alias'],
};
