// The security configuration, in the security plugin's own files and format, read from
// `<path.conf>/opensearch-security/` at start: config.yml (authentication domains),
// internal_users.yml, roles.yml, roles_mapping.yml and action_groups.yml. Each file is optional;
// what a file leaves out comes from the defaults below (OpenSearch's static roles and action
// groups, an `admin` user mapped to `all_access`, and the API-key and basic domains).
//
// Quarry reads the files; it has no security REST API to change them, so a change takes a restart.
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { parse as parseYaml } from 'yaml';
import { STATIC_ACTION_GROUPS, expandActions } from './action-groups';

export type AuthenticatorType = 'basic' | 'apikey';

export interface AuthDomain {
  readonly name: string;
  readonly order: number;
  readonly type: AuthenticatorType;
  readonly challenge: boolean;
}

export interface InternalUser {
  readonly hash: string;
  readonly backendRoles: readonly string[];
  /** Security roles given to the user directly (`opendistro_security_roles`). */
  readonly securityRoles: readonly string[];
  readonly attributes: Readonly<Record<string, string>>;
}

export interface IndexPermission {
  readonly indexPatterns: readonly string[];
  /** Action patterns, groups expanded. */
  readonly actions: readonly string[];
}

export interface Role {
  /** Action patterns, groups expanded. */
  readonly cluster: readonly string[];
  readonly index: readonly IndexPermission[];
}

export interface RoleMapping {
  readonly users: readonly string[];
  readonly backendRoles: readonly string[];
  readonly andBackendRoles: readonly string[];
}

export interface SecurityModel {
  /** HTTP-enabled domains, by ascending order. */
  readonly domains: readonly AuthDomain[];
  readonly users: ReadonlyMap<string, InternalUser>;
  readonly roles: ReadonlyMap<string, Role>;
  readonly mappings: ReadonlyMap<string, RoleMapping>;
}

export class SecurityConfigError extends Error {
  constructor(file: string, reason: string) {
    super(`invalid security configuration [${file}]: ${reason}`);
    this.name = 'SecurityConfigError';
  }
}

export type Doc = Record<string, unknown>;

function readDoc(dir: string, name: string): Doc | undefined {
  const file = path.join(dir, name);
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (err) {
    if ((err as NodeJS.ErrnoException).code === 'ENOENT') return undefined;
    throw err;
  }
  let doc: unknown;
  try {
    doc = parseYaml(text);
  } catch (err) {
    throw new SecurityConfigError(file, (err as Error).message);
  }
  if (doc === null || doc === undefined) return {};
  if (typeof doc !== 'object' || Array.isArray(doc)) throw new SecurityConfigError(file, 'expected a map');
  const out = { ...(doc as Doc) };
  delete out._meta;
  return out;
}

function obj(v: unknown, file: string, where: string): Doc {
  if (v === undefined || v === null) return {};
  if (typeof v !== 'object' || Array.isArray(v)) throw new SecurityConfigError(file, `[${where}] must be a map`);
  return v as Doc;
}

function strings(v: unknown, file: string, where: string): string[] {
  if (v === undefined || v === null) return [];
  if (!Array.isArray(v) || v.some((x) => typeof x !== 'string')) throw new SecurityConfigError(file, `[${where}] must be a list of strings`);
  return v as string[];
}

function bool(v: unknown, dflt: boolean, file: string, where: string): boolean {
  if (v === undefined || v === null) return dflt;
  if (typeof v !== 'boolean') throw new SecurityConfigError(file, `[${where}] must be true or false`);
  return v;
}

const DEFAULT_DOMAINS: readonly AuthDomain[] = [
  { name: 'apikey_auth_domain', order: 1, type: 'apikey', challenge: false },
  { name: 'basic_internal_auth_domain', order: 4, type: 'basic', challenge: true },
];

function domainsOf(doc: Doc | undefined, file: string): AuthDomain[] {
  if (doc === undefined) return [...DEFAULT_DOMAINS];
  const dynamic = obj(obj(doc.config, file, 'config').dynamic, file, 'config.dynamic');
  const http = obj(dynamic.http, file, 'config.dynamic.http');
  if (bool(http.anonymous_auth_enabled, false, file, 'anonymous_auth_enabled')) {
    throw new SecurityConfigError(file, 'anonymous authentication is not supported by Quarry');
  }
  const out: AuthDomain[] = [];
  for (const [name, raw] of Object.entries(obj(dynamic.authc, file, 'config.dynamic.authc'))) {
    const d = obj(raw, file, name);
    if (!bool(d.http_enabled, true, file, `${name}.http_enabled`)) continue;
    const authenticator = obj(d.http_authenticator, file, `${name}.http_authenticator`);
    const type = authenticator.type;
    if (type !== 'basic' && type !== 'apikey') {
      throw new SecurityConfigError(file, `[${name}]: authenticator type [${String(type)}] is not supported by Quarry (basic, apikey)`);
    }
    const backend = obj(d.authentication_backend, file, `${name}.authentication_backend`).type;
    const expected = type === 'basic' ? ['intern', 'internal'] : ['noop'];
    if (backend !== undefined && !expected.includes(String(backend))) {
      throw new SecurityConfigError(file, `[${name}]: authentication backend [${String(backend)}] does not go with authenticator [${type}] (use ${expected[0]})`);
    }
    const order = d.order ?? 0;
    if (typeof order !== 'number' || !Number.isInteger(order)) throw new SecurityConfigError(file, `[${name}.order] must be an integer`);
    out.push({ name, order, type, challenge: bool(authenticator.challenge, type === 'basic', file, `${name}.http_authenticator.challenge`) });
  }
  return out.sort((a, b) => a.order - b.order);
}

function usersOf(doc: Doc | undefined, file: string): Map<string, InternalUser> {
  const out = new Map<string, InternalUser>();
  for (const [name, raw] of Object.entries(doc ?? {})) {
    const u = obj(raw, file, name);
    if (typeof u.hash !== 'string' || !/^\$2[aby]\$\d\d\$/.test(u.hash)) throw new SecurityConfigError(file, `[${name}.hash] must be a bcrypt hash`);
    const attributes: Record<string, string> = {};
    for (const [k, v] of Object.entries(obj(u.attributes, file, `${name}.attributes`))) attributes[k] = String(v);
    out.set(name, {
      hash: u.hash,
      backendRoles: strings(u.backend_roles, file, `${name}.backend_roles`),
      securityRoles: strings(u.opendistro_security_roles ?? u.security_roles, file, `${name}.opendistro_security_roles`),
      attributes,
    });
  }
  return out;
}

function groupsOf(doc: Doc | undefined, file: string): Record<string, readonly string[]> {
  const out: Record<string, readonly string[]> = { ...STATIC_ACTION_GROUPS };
  for (const [name, raw] of Object.entries(doc ?? {})) {
    out[name] = strings(obj(raw, file, name).allowed_actions, file, `${name}.allowed_actions`);
  }
  return out;
}

const STATIC_ROLES: Readonly<Record<string, Doc>> = {
  all_access: { cluster_permissions: ['*'], index_permissions: [{ index_patterns: ['*'], allowed_actions: ['*'] }] },
  readall: { cluster_permissions: ['cluster_composite_ops_ro'], index_permissions: [{ index_patterns: ['*'], allowed_actions: ['read'] }] },
  readall_and_monitor: {
    cluster_permissions: ['cluster_monitor', 'cluster_composite_ops_ro'],
    index_permissions: [{ index_patterns: ['*'], allowed_actions: ['read'] }],
  },
};

function rolesOf(doc: Doc | undefined, file: string, groups: Record<string, readonly string[]>): Map<string, Role> {
  const out = new Map<string, Role>();
  for (const [name, raw] of Object.entries({ ...STATIC_ROLES, ...(doc ?? {}) })) {
    const r = obj(raw, file, name);
    const perms = r.index_permissions ?? [];
    if (!Array.isArray(perms)) throw new SecurityConfigError(file, `[${name}.index_permissions] must be a list`);
    const index = perms.map((p: unknown, i) => {
      const ip = obj(p, file, `${name}.index_permissions[${i}]`);
      for (const unsupported of ['dls', 'fls', 'masked_fields']) {
        const v = ip[unsupported];
        if (v !== undefined && v !== null && !(Array.isArray(v) && v.length === 0) && v !== '') {
          throw new SecurityConfigError(file, `[${name}]: [${unsupported}] is not supported by Quarry`);
        }
      }
      return {
        indexPatterns: strings(ip.index_patterns, file, `${name}.index_patterns`),
        actions: expandActions(strings(ip.allowed_actions, file, `${name}.allowed_actions`), groups),
      };
    });
    out.set(name, { cluster: expandActions(strings(r.cluster_permissions, file, `${name}.cluster_permissions`), groups), index });
  }
  return out;
}

const DEFAULT_MAPPINGS: Readonly<Record<string, Doc>> = {
  all_access: { backend_roles: ['admin'] },
  readall: { backend_roles: ['readall'] },
};

function mappingsOf(doc: Doc | undefined, file: string): Map<string, RoleMapping> {
  const source: Doc = doc ?? DEFAULT_MAPPINGS;
  const out = new Map<string, RoleMapping>();
  for (const [role, raw] of Object.entries(source)) {
    const m = obj(raw, file, role);
    out.set(role, {
      users: strings(m.users, file, `${role}.users`),
      backendRoles: strings(m.backend_roles, file, `${role}.backend_roles`),
      andBackendRoles: strings(m.and_backend_roles, file, `${role}.and_backend_roles`),
    });
  }
  return out;
}

/** The configuration documents, each as its file holds it (`undefined`: no such file). */
export interface SecurityDocs {
  readonly config: Doc | undefined;
  readonly internalusers: Doc | undefined;
  readonly roles: Doc | undefined;
  readonly rolesmapping: Doc | undefined;
  readonly actiongroups: Doc | undefined;
}

export type SecurityDocType = Exclude<keyof SecurityDocs, 'config'>;

export const FILE_OF: Readonly<Record<keyof SecurityDocs, string>> = {
  config: 'config.yml',
  internalusers: 'internal_users.yml',
  roles: 'roles.yml',
  rolesmapping: 'roles_mapping.yml',
  actiongroups: 'action_groups.yml',
};

/** Reads `<confDir>/opensearch-security/*.yml`. */
export function readSecurityDocs(confDir: string): SecurityDocs {
  const dir = path.join(confDir, 'opensearch-security');
  return {
    config: readDoc(dir, FILE_OF.config),
    internalusers: readDoc(dir, FILE_OF.internalusers),
    roles: readDoc(dir, FILE_OF.roles),
    rolesmapping: readDoc(dir, FILE_OF.rolesmapping),
    actiongroups: readDoc(dir, FILE_OF.actiongroups),
  };
}

/** The roles and mappings a node has before any file or API change: OpenSearch's static roles. */
export function builtInDocs(type: 'roles' | 'rolesmapping'): Doc {
  return type === 'roles' ? { ...STATIC_ROLES } : { ...DEFAULT_MAPPINGS };
}

/** The model of the documents; `bootstrapAdmin` is the node's own admin, used unless `admin` is defined. */
export function buildSecurityModel(docs: SecurityDocs, bootstrapAdmin: InternalUser | undefined, where = ''): SecurityModel {
  const f = (type: keyof SecurityDocs): string => where + FILE_OF[type];
  const groups = groupsOf(docs.actiongroups, f('actiongroups'));
  const users = usersOf(docs.internalusers, f('internalusers'));
  if (bootstrapAdmin !== undefined && !users.has('admin')) users.set('admin', bootstrapAdmin);
  return {
    domains: domainsOf(docs.config, f('config')),
    users,
    roles: rolesOf(docs.roles, f('roles'), groups),
    mappings: mappingsOf(docs.rolesmapping, f('rolesmapping')),
  };
}

/** Reads the configuration files and builds their model. */
export function loadSecurityModel(confDir: string, bootstrapAdmin: InternalUser | undefined): SecurityModel {
  return buildSecurityModel(readSecurityDocs(confDir), bootstrapAdmin, `${path.join(confDir, 'opensearch-security')}${path.sep}`);
}
