import { route, type ActionSpec } from '../../http/action';

export const documentExists: ActionSpec = {
  action: 'indices:data/read/get',
  engineAction: 'indices:data/read/exists',
  routes: [route('HEAD', '/:index/_doc/:id')],
  params: ['preference', 'realtime', 'refresh', 'routing', 'stored_fields', '_source', '_source_excludes', '_source_includes', 'version', 'version_type'],
};
