import { route, type ActionSpec } from '../../http/action';

export const documentCreate: ActionSpec = {
  action: 'indices:data/write/index',
  routes: [route('PUT', '/:index/_create/:id'), route('POST', '/:index/_create/:id')],
  // The same engine write as indexing, with op_type forced to create.
  fixedParams: { create: 'true' },
  params: ['wait_for_active_shards', 'refresh', 'routing', 'timeout', 'version', 'version_type', 'pipeline', 'require_alias'],
};
