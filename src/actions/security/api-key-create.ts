import { route, type ActionSpec } from '../../http/action';
import { parseCreateRequest } from '../../security/api-keys';
import { readJsonObject } from '../../http/json-body';
import { apiKeysOf, jsonAnswer } from './api-key-service';

// `PUT /_plugins/_security/api/apikey`: a new key, its secret shown this once.
export const apiKeyCreate: ActionSpec = {
  action: 'security:apikey/create',
  routes: [route('PUT', '/_plugins/_security/api/apikey')],
  params: [],
  run: async (request, node) => {
    const keys = apiKeysOf(node);
    const req = parseCreateRequest(readJsonObject(request.body, true));
    // The pipeline authenticated the request, so a principal is there whenever security is on.
    if (request.principal === undefined) throw new Error('API key creation without a principal');
    return jsonAnswer(await keys.create(request.principal, req));
  },
};
