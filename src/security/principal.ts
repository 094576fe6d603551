// Who a request runs as: a name, backend roles, the security roles those map to, and the
// permissions the roles grant, compiled once when the principal is made (principals are cached
// with the credentials that made them, so a request pays nothing for this).
import type { IndexPermission, SecurityModel } from './security-config';

export interface Principal {
  readonly name: string;
  readonly backendRoles: readonly string[];
  readonly securityRoles: readonly string[];
  /** A client certificate listed in `plugins.security.authcz.admin_dn`: no permission checks. */
  readonly superAdmin: boolean;
  /** Set when the request authenticated with an API key. */
  readonly apiKeyId: string | undefined;
  /** Cluster action patterns granted. */
  readonly cluster: readonly string[];
  readonly index: readonly IndexPermission[];
}

/** The security roles a user holds: given directly, and mapped from the name or backend roles. */
export function mappedRoles(model: SecurityModel, name: string | undefined, backendRoles: readonly string[], direct: readonly string[]): string[] {
  const out = new Set<string>(direct);
  const held = new Set(backendRoles);
  for (const [role, m] of model.mappings) {
    const byUser = name !== undefined && m.users.some((u) => u === name || u === '*');
    const byBackend = m.backendRoles.some((b) => held.has(b));
    const byAll = m.andBackendRoles.length > 0 && m.andBackendRoles.every((b) => held.has(b));
    if (byUser || byBackend || byAll) out.add(role);
  }
  return [...out];
}

export function makePrincipal(
  model: SecurityModel,
  name: string,
  backendRoles: readonly string[],
  securityRoles: readonly string[],
  apiKeyId: string | undefined = undefined,
): Principal {
  const cluster: string[] = [];
  const index: IndexPermission[] = [];
  for (const roleName of securityRoles) {
    const role = model.roles.get(roleName);
    if (role === undefined) continue;
    cluster.push(...role.cluster);
    for (const p of role.index) {
      // `${user.name}` in an index pattern stands for the user's own indices.
      index.push({ indexPatterns: p.indexPatterns.map((x) => x.replace(/\$\{user[._]name\}/g, name)), actions: p.actions });
    }
  }
  return { name, backendRoles, securityRoles, superAdmin: false, apiKeyId, cluster, index };
}

export function superAdmin(dn: string): Principal {
  return { name: dn, backendRoles: [], securityRoles: [], superAdmin: true, apiKeyId: undefined, cluster: ['*'], index: [{ indexPatterns: ['*'], actions: ['*'] }] };
}
