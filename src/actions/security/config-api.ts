// The security plugin's REST API for its configuration: internal users, roles, role mappings
// and action groups, each with `GET` (all, or one), `PUT` (create or replace), `DELETE` and
// `PATCH` (a JSON patch of one entry or of the whole collection), in the plugin's own answer shape (`{"status":"CREATED","message":"'alice' created."}`), not the
// error envelope. Changes are kept (src/security/security-store.ts) and apply to the next
// request. A user's `password` is stored only as its bcrypt hash; hashes are never shown.
import { isDeepStrictEqual } from 'node:util';
import { hash } from '@node-rs/bcrypt';
import { route, type ActionRequest, type ActionSpec } from '../../http/action';
import type { EngineResponse } from '../../engine';
import { jsonResponse } from '../../http/json-response';
import type { NodeContext } from '../../node-context';
import { SecurityConfigError, type Doc, type SecurityDocType } from '../../security/security-config';
import type { Security } from '../../security/security';
import { applyPatch, parsePatch, patchedNames, PatchError, type JsonValue, type PatchOperation } from '../../security/json-patch';

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

/**
 * An entry as it will be kept: only the fields its type takes, and for a user the `password`
 * turned into its bcrypt hash (an existing user given neither keeps the hash it had).
 */
async function prepare(type: SecurityDocType, name: string, doc: Doc, security: Security, node: NodeContext): Promise<{ entry: Doc } | { refused: EngineResponse }> {
  const invalid = Object.keys(doc).filter((k) => !FIELDS[type].includes(k));
  if (invalid.length > 0) return { refused: jsonResponse({ status: 'error', reason: 'Invalid configuration', invalid_keys: { keys: invalid.join(',') } }, 400) };
  const entry: Doc = { ...doc };
  if (type !== 'internalusers') return { entry };
  delete entry.password;
  if (typeof doc.password === 'string' && doc.password.length > 0) entry.hash = await hash(doc.password, node.config.security.bcryptRounds);
  else if (doc.hash === undefined) {
    const kept = allEntries(security, type)[name] === undefined ? undefined : security.store.model.users.get(name)?.hash;
    if (kept === undefined) return { refused: message(400, 'BAD_REQUEST', "Please specify either 'hash' or 'password' when creating a new internal user.") };
    entry.hash = kept;
  }
  return { entry };
}

/** Keeps the changes, or answers why the configuration cannot hold them. */
async function save(security: Security, type: SecurityDocType, changes: ReadonlyArray<readonly [string, Doc | null]>, done: EngineResponse): Promise<EngineResponse> {
  try {
    await security.store.change(type, changes);
  } catch (err) {
    if (err instanceof SecurityConfigError) return message(400, 'BAD_REQUEST', err.message);
    throw err;
  }
  return done;
}

/** Entries nobody may change or delete through the API (`admin` may be changed, not deleted). */
function reserved(security: Security, type: SecurityDocType, name: string, deleting: boolean): EngineResponse | undefined {
  if (security.store.isStatic(type, name) || (deleting && type === 'internalusers' && name === 'admin')) return message(403, 'FORBIDDEN', `Resource '${name}' is reserved.`);
  return undefined;
}

function put(type: SecurityDocType) {
  return async (request: ActionRequest, node: NodeContext): Promise<EngineResponse> => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    const name = request.params.name ?? '';
    const refusal = reserved(security, type, name, false);
    if (refusal !== undefined) return refusal;
    const parsed = parseBody(request.body);
    if ('refused' in parsed) return parsed.refused;
    const existed = allEntries(security, type)[name] !== undefined;
    const ready = await prepare(type, name, parsed.doc, security, node);
    if ('refused' in ready) return ready.refused;
    return save(security, type, [[name, ready.entry]], existed ? message(200, 'OK', `'${name}' updated.`) : message(201, 'CREATED', `'${name}' created.`));
  };
}

/**
 * `PATCH`: a JSON patch of one entry (`/<name>`, which must exist) or of the whole collection
 * (paths start with the entry's name; an entry patched away is deleted). Every entry the patch
 * changes is checked as a `PUT` of it would be, and nothing is kept unless all pass.
 */
function patch(type: SecurityDocType) {
  return async (request: ActionRequest, node: NodeContext): Promise<EngineResponse> => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    let ops: PatchOperation[];
    try {
      ops = parsePatch(request.body ?? Buffer.alloc(0));
    } catch (err) {
      if (err instanceof PatchError) return message(400, 'BAD_REQUEST', err.message);
      throw err;
    }
    const all = allEntries(security, type);
    const name = request.params.name;
    try {
      if (name !== undefined) {
        const refusal = reserved(security, type, name, false);
        if (refusal !== undefined) return refusal;
        const before = all[name] as JsonValue | undefined;
        if (before === undefined) return message(404, 'NOT_FOUND', `Resource '${name}' not found.`);
        const after = applyPatch(before, ops);
        if (after === null || typeof after !== 'object' || Array.isArray(after)) return message(400, 'BAD_REQUEST', 'Wrong request body');
        const ready = await prepare(type, name, after as Doc, security, node);
        if ('refused' in ready) return ready.refused;
        return save(security, type, [[name, ready.entry]], message(200, 'OK', `'${name}' updated.`));
      }
      const patched = applyPatch(all as JsonValue, ops);
      if (patched === null || typeof patched !== 'object' || Array.isArray(patched)) return message(400, 'BAD_REQUEST', 'Wrong request body');
      const changes: Array<readonly [string, Doc | null]> = [];
      for (const entryName of patchedNames(ops)) {
        const before = all[entryName];
        const after = (patched as Doc)[entryName];
        if (isDeepStrictEqual(before, after)) continue;
        const refusal = before === undefined ? undefined : reserved(security, type, entryName, after === undefined);
        if (refusal !== undefined) return refusal;
        if (after === undefined) {
          changes.push([entryName, null]);
          continue;
        }
        if (after === null || typeof after !== 'object' || Array.isArray(after)) return message(400, 'BAD_REQUEST', 'Wrong request body');
        const ready = await prepare(type, entryName, after as Doc, security, node);
        if ('refused' in ready) return ready.refused;
        changes.push([entryName, ready.entry]);
      }
      return save(security, type, changes, message(200, 'OK', 'Resource updated.'));
    } catch (err) {
      if (err instanceof PatchError) return message(400, 'BAD_REQUEST', err.message);
      throw err;
    }
  };
}

function remove(type: SecurityDocType) {
  return async (request: ActionRequest, node: NodeContext): Promise<EngineResponse> => {
    const security = securityOf(node);
    if (!('store' in security)) return security;
    const name = request.params.name ?? '';
    const refusal = reserved(security, type, name, true);
    if (refusal !== undefined) return refusal;
    if (allEntries(security, type)[name] === undefined) return message(404, 'NOT_FOUND', `Resource '${name}' not found.`);
    return save(security, type, [[name, null]], message(200, 'OK', `'${name}' deleted.`));
  };
}

/** The routes of one kind of entry, each verb its own action (and permission). */
export function configApi(type: SecurityDocType): ActionSpec[] {
  const base = `/_plugins/_security/api/${PATHS[type]}`;
  const action = (verb: string): string => `restapi:admin/${type}/${verb}`;
  return [
    { action: action('get'), routes: [route('GET', base), route('GET', `${base}/:name`)], params: [], run: get(type) },
    { action: action('put'), routes: [route('PUT', `${base}/:name`)], params: [], run: put(type) },
    { action: action('delete'), routes: [route('DELETE', `${base}/:name`)], params: [], run: remove(type) },
    { action: action('patch'), routes: [route('PATCH', base), route('PATCH', `${base}/:name`)], params: [], run: patch(type) },
  ];
}
