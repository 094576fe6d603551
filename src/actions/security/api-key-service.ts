// What the API-key actions share: the node's key service, refused when the feature is off.
import { apiKeysDisabled, illegalArgument } from '../../http/error-table';
import type { NodeContext } from '../../node-context';
import type { ApiKeys } from '../../security/api-keys';

export function apiKeysOf(node: NodeContext): ApiKeys {
  const security = node.security;
  if (security === undefined) throw illegalArgument('security is disabled on this node ([plugins.security.disabled] is true)');
  if (!security.apiKeys.enabled) throw apiKeysDisabled();
  return security.apiKeys;
}

export { jsonResponse as jsonAnswer } from '../../http/json-response';
