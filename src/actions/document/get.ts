import { route, type ActionSpec } from '../../http/action';

export const documentGet: ActionSpec = {
  action: 'indices:data/read/get',
  routes: [route('GET', '/:index/_doc/:id')],
  params: ['preference', 'realtime', 'refresh', 'routing', 'stored_fields', '_source', '_source_excludes', '_source_includes', 'version', 'version_type'],
};
