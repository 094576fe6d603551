// The security plugin's REST API for its configuration: internal users, roles, role mappings
// and action groups, each with `GET` (all, or one), `PUT` (create or replace) and `DELETE`, in
// the plugin's own answer shape (`{"status":"CREATED","message":"'alice' created."}`), not the
// error envelope. Changes are kept (src/security/security-store.ts) and apply to the next
// request. A user's `password` is stored only as its bcrypt hash; hashes are never shown.
import { hash } from '@node-rs/bcrypt';
import { route, type ActionRequest, type ActionSpec } from '../../http/action';
import type { EngineResponse } from '../../engine';
import { jsonResponse } from '../../http/json-response';
import type { NodeContext } from '../../node-context';
import { SecurityConfigError, type Doc, type SecurityDocType } from '../../security/security-config';
import type { Security } from '../../security/security';

const PATHS: Readonly<Record<SecurityDocType, string>> = {
  internalusers: 'internalusers',
  roles: 'roles',
  rolesmapping: 'rolesmapping',
  actiongroups: 'actiongroups',
};

/** The fields each kind of entry takes through the API. */
const FIELDS: Readonly<Record<SecurityDocType, readonly string[]>> = {
  internalusers: ['password', 'hash', 'backend_roles', 'attributes', 'opendistro_security_roles', 'description'],
  roles: ['cluster_permissions', 'index_permissions', 'tenant_permissions', 'description'],
  rolesmapping: ['backend_roles', 'and_backend_roles', 'users', 'hosts', 'description'],
  actiongroups: ['allowed_actions', 'type', 'description'],
};

function message(status: number, word: string, text: string): EngineResponse {
  return jsonResponse({ status: word, message: text }, status);
}

function securityOf(node: NodeContext): Security | EngineResponse {
  return node.security ?? message(400, 'BAD_REQUEST', 'Security is disabled on this node ([plugins.security.disabled] is true).');
}

const list = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);

/** An entry as the API shows it: OpenSearch's fields, defaults filled, a user's hash blanked. */
function shown(type: SecurityDocType, entry: Doc, isStatic: boolean): Doc {
  const flags = { reserved: isStatic, hidden: false };
  switch (type) {
    case 'internalusers':
      return { hash: '', ...flags, backend_roles: list(entry.backend_roles), attributes: entry.attributes ?? {}, opendistro_security_roles: list(entry.opendistro_security_roles), static: false };
    case 'roles':
      return {
        ...flags,
        cluster_permissions: list(entry.cluster_permissions),
        index_permissions: list(entry.index_permissions).map((p) => ({ fls: [], masked_fields: [], ...(p as Doc) })),
        tenant_permissions: list(entry.tenant_permissions),
        static: isStatic,
      };
    case 'rolesmapping':
      return { hosts: list(entry.hosts), users: list(entry.users), ...flags, backend_roles: list(entry.backend_roles), and_backend_roles: list(entry.and_backend_roles) };
    case 'actiongroups':
      return { ...flags, allowed_actions: list(entry.allowed_actions), static: isStatic };
  }
}

/** Every entry of a type as the API lists it: the static ones, then the configured ones. */
function allEntries(security: Security, type: SecurityDocType): Doc {
  const store = security.store;
  const all: Doc = { ...store.staticEntries(type), ...store.entries(type) };
  // The node's own admin, unless configured
  const admin = store.model.users.get('admin');
  if (type === 'internalusers' && !('admin' in all) && admin !== undefined) all.admin = { backend_roles: admin.backendRoles };
  return all;
}

function get(type: SecurityDocType) {
  return (request: ActionRequest, node: NodeContext): EngineResponse => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    const name = request.params.name;
    const store = security.store;
    const all = allEntries(security, type);
    if (name !== undefined) {
      const entry = all[name];
      if (entry === undefined) return message(404, 'NOT_FOUND', `Resource '${name}' not found.`);
      return jsonResponse({ [name]: shown(type, (entry ?? {}) as Doc, store.isStatic(type, name)) });
    }
    const out: Doc = {};
    for (const [k, v] of Object.entries(all)) out[k] = shown(type, (v ?? {}) as Doc, store.isStatic(type, k));
    return jsonResponse(out);
  };
}

function parseBody(body: Buffer | undefined): { doc: Doc } | { refused: EngineResponse } {
  if (body === undefined || body.length === 0) return { refused: message(400, 'BAD_REQUEST', 'Request body required for this action.') };
  try {
    const v = JSON.parse(body.toString('utf8')) as unknown;
    if (v !== null && typeof v === 'object' && !Array.isArray(v)) return { doc: v as Doc };
  } catch {
    // answered below
  }
  return { refused: message(400, 'BAD_REQUEST', 'Could not parse content of request.') };
}

function put(type: SecurityDocType) {
  return async (request: ActionRequest, node: NodeContext): Promise<EngineResponse> => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    const name = request.params.name ?? '';
    const store = security.store;
    if (store.isStatic(type, name)) return message(403, 'FORBIDDEN', `Resource '${name}' is reserved.`);
    const parsed = parseBody(request.body);
    if ('refused' in parsed) return parsed.refused;
    const doc = parsed.doc;
    const invalid = Object.keys(doc).filter((k) => !FIELDS[type].includes(k));
    if (invalid.length > 0) return jsonResponse({ status: 'error', reason: 'Invalid configuration', invalid_keys: { keys: invalid.join(',') } }, 400);
    const existing = allEntries(security, type)[name] as Doc | undefined;
    const entry: Doc = { ...doc };
    if (type === 'internalusers') {
      delete entry.password;
      if (typeof doc.password === 'string' && doc.password.length > 0) entry.hash = await hash(doc.password, node.config.security.bcryptRounds);
      else if (doc.hash === undefined && existing !== undefined) {
        const kept = store.model.users.get(name)?.hash;
        if (kept !== undefined) entry.hash = kept;
      }
      else if (doc.hash === undefined) return message(400, 'BAD_REQUEST', "Please specify either 'hash' or 'password' when creating a new internal user.");
    }
    try {
      await store.put(type, name, entry);
    } catch (err) {
      if (err instanceof SecurityConfigError) return message(400, 'BAD_REQUEST', err.message);
      throw err;
    }
    return existing === undefined ? message(201, 'CREATED', `'${name}' created.`) : message(200, 'OK', `'${name}' updated.`);
  };
}

function remove(type: SecurityDocType) {
  return async (request: ActionRequest, node: NodeContext): Promise<EngineResponse> => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    const name = request.params.name ?? '';
    const store = security.store;
    if (store.isStatic(type, name) || (type === 'internalusers' && name === 'admin')) return message(403, 'FORBIDDEN', `Resource '${name}' is reserved.`);
    if (allEntries(security, type)[name] === undefined) return message(404, 'NOT_FOUND', `Resource '${name}' not found.`);
    try {
      await store.remove(type, name);
    } catch (err) {
      if (err instanceof SecurityConfigError) return message(400, 'BAD_REQUEST', err.message);
      throw err;
    }
    return message(200, 'OK', `'${name}' deleted.`);
  };
}

/** The four routes of one kind of entry, each its own action (and permission). */
export function configApi(type: SecurityDocType): ActionSpec[] {
  const base = `/_plugins/_security/api/${PATHS[type]}`;
  const action = (verb: string): string => `restapi:admin/${type}/${verb}`;
  return [
    { action: action('get'), routes: [route('GET', base), route('GET', `${base}/:name`)], params: [], run: get(type) },
    { action: action('put'), routes: [route('PUT', `${base}/:name`)], params: [], run: put(type) },
    { action: action('delete'), routes: [route('DELETE', `${base}/:name`)], params: [], run: remove(type) },
  ];
}
