import { route, type ActionSpec } from '../../http/action';
import { apiKeysOf, jsonAnswer } from './api-key-service';

// `GET /_plugins/_security/api/apikey/<id>`: one key's metadata, in the list's wrapper.
export const apiKeyGet: ActionSpec = {
  action: 'security:apikey/get',
  routes: [route('GET', '/_plugins/_security/api/apikey/:id')],
  params: [],
  run: (request, node) => jsonAnswer({ api_keys: [apiKeysOf(node).get(request.params.id ?? '')] }),
};
