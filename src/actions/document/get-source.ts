import { route, type ActionSpec } from '../../http/action';

export const documentGetSource: ActionSpec = {
  action: 'indices:data/read/get',
  engineAction: 'indices:data/read/source',
  routes: [route('GET', '/:index/_source/:id'), route('HEAD', '/:index/_source/:id')],
  params: ['preference', 'realtime', 'refresh', 'routing', '_source', '_source_excludes', '_source_includes', 'version', 'version_type'],
};
