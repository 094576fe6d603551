// What the API-key actions share: the node's key service, refused when the feature is off, and
// the JSON body of a create request.
import { apiKeysDisabled, bodyRequired, illegalArgument } from '../../http/error-table';
import { OpenSearchError } from '../../http/errors';
import type { NodeContext } from '../../node-context';
import type { ApiKeys } from '../../security/api-keys';

export function apiKeysOf(node: NodeContext): ApiKeys {
  const security = node.security;
  if (security === undefined) throw illegalArgument('security is disabled on this node ([plugins.security.disabled] is true)');
  if (!security.apiKeys.enabled) throw apiKeysDisabled();
  return security.apiKeys;
}

export function jsonBody(body: Buffer | undefined): unknown {
  if (body === undefined || body.length === 0) throw bodyRequired();
  try {
    return JSON.parse(body.toString('utf8')) as unknown;
  } catch (err) {
    throw new OpenSearchError(400, 'parse_exception', `request body is not valid JSON: ${(err as Error).message}`);
  }
}

export function jsonAnswer(value: unknown): { status: number; body: Buffer } {
  return { status: 200, body: Buffer.from(JSON.stringify(value)) };
}
