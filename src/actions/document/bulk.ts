import { route, type ActionSpec } from '../../http/action';

export const documentBulk: ActionSpec = {
  action: 'indices:data/write/bulk',
  routes: [route('POST', '/_bulk'), route('PUT', '/_bulk'), route('POST', '/:index/_bulk'), route('PUT', '/:index/_bulk')],
  params: ['wait_for_active_shards', 'refresh', 'routing', 'timeout', 'type', '_source', '_source_excludes', '_source_includes', 'pipeline', 'require_alias', 'batch_size'],
};
