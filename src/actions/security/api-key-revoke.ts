import { route, type ActionSpec } from '../../http/action';
import { apiKeysOf, jsonAnswer } from './api-key-service';

// `DELETE /_plugins/_security/api/apikey/<id>`: the key stops authenticating at once; its
// record stays, marked invalidated.
export const apiKeyRevoke: ActionSpec = {
  action: 'security:apikey/invalidate',
  routes: [route('DELETE', '/_plugins/_security/api/apikey/:id')],
  params: [],
  run: async (request, node) => jsonAnswer(await apiKeysOf(node).revoke(request.params.id ?? '')),
};
