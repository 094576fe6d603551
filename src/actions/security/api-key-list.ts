import { route, type ActionSpec } from '../../http/action';
import { apiKeysOf, jsonAnswer } from './api-key-service';

// `GET /_plugins/_security/api/apikey`: every key's metadata, revoked and expired ones included.
export const apiKeyList: ActionSpec = {
  action: 'security:apikey/list',
  routes: [route('GET', '/_plugins/_security/api/apikey')],
  params: [],
  run: (_request, node) => jsonAnswer({ api_keys: apiKeysOf(node).list() }),
};
