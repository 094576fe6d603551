import { route, type ActionSpec } from '../../http/action';

export const documentMget: ActionSpec = {
  action: 'indices:data/read/mget',
  routes: [route('GET', '/_mget'), route('POST', '/_mget'), route('GET', '/:index/_mget'), route('POST', '/:index/_mget')],
  params: ['stored_fields', 'preference', 'realtime', 'refresh', 'routing', '_source', '_source_excludes', '_source_includes'],
};
