// Stage 3 of the request pipeline: may this principal run this action on these indices?
//
// As in the security plugin, cluster actions (and the composite ones that carry their own
// targets: bulk, multi-get, multi-search, scroll) are checked against the roles' cluster
// permissions, and index actions against their index permissions for every index expression
// the request names (none means all). An expression is allowed when a granted pattern covers it
// as written: `logs-*` covers `logs-2024*` and `logs-1`, but not `*`. OpenSearch resolves the
// expression to concrete indices first; checking the expression itself is stricter for
// wildcards that happen to resolve inside a granted pattern, and never looser.
import { noPermissions } from '../http/error-table';
import { isSystemIndexName, mentionsSystemIndex } from '../system/system-index';
import type { Principal } from './principal';
import { ITEM_ACTIONS, itemTargets } from './item-targets';
import { matches, matchesAny } from './wildcard';

const COMPOSITE = new Set([
  'indices:data/write/bulk',
  'indices:data/read/mget',
  'indices:data/read/msearch',
  'indices:data/read/msearch/template',
  'indices:data/read/scroll',
  'indices:data/read/scroll/clear',
]);

/** Actions every authenticated user may run (asking who one is). */
const SELF_SERVICE = new Set(['cluster:admin/opendistro_security/authinfo']);

export function isClusterAction(action: string): boolean {
  return !action.startsWith('indices:') || COMPOSITE.has(action) || action.startsWith('indices:admin/template/') || action.startsWith('indices:admin/index_template/');
}

/** Whether `expression` (as the request wrote it) is covered by the principal for `action`. */
function indexAllowed(principal: Principal, action: string, expression: string): boolean {
  for (const p of principal.index) {
    if (matchesAny(p.actions, action) && p.indexPatterns.some((pattern) => matches(pattern, expression))) return true;
  }
  return false;
}

export function authorize(principal: Principal, action: string, indices: readonly string[]): void {
  if (principal.superAdmin || SELF_SERVICE.has(action)) return;
  for (const expression of indices) {
    if (isSystemIndexName(expression)) throw noPermissions([], principal.name, principal.backendRoles);
  }
  if (isClusterAction(action)) {
    if (!matchesAny(principal.cluster, action)) throw noPermissions([action], principal.name, principal.backendRoles);
    return;
  }
  authorizeIndices(principal, action, indices);
}

/** The index permission check, for an action on the indices it names (none means all). */
function authorizeIndices(principal: Principal, action: string, indices: readonly string[]): void {
  const expressions = indices.length === 0 ? ['*'] : indices;
  for (const raw of expressions) {
    // An exclusion narrows what the others name; it needs no permission of its own.
    if (raw.startsWith('-') && expressions.length > 1) continue;
    const expression = raw === '_all' ? '*' : raw;
    if (isSystemIndexName(expression)) throw noPermissions([], principal.name, principal.backendRoles);
    if (!indexAllowed(principal, action, expression)) throw noPermissions([action], principal.name, principal.backendRoles);
  }
}

/** Whether the principal may run `action` on every index (then a body need not be read). */
function everywhere(principal: Principal, action: string): boolean {
  return principal.superAdmin || principal.index.some((p) => p.indexPatterns.includes('*') && matchesAny(p.actions, action));
}

/** Composite requests (bulk, multi-get, multi-search): each item's action on each item's index. */
export function authorizeItems(principal: Principal, action: string, bytes: Buffer | undefined, defaultIndex: string | undefined): void {
  const possible = ITEM_ACTIONS[action];
  if (possible === undefined || principal.superAdmin) return;
  // Allowed everywhere, only a system index could refuse an item, and a body that never spells
  // one needs no reading.
  if (possible.every((a) => everywhere(principal, a)) && (bytes === undefined || !mentionsSystemIndex(bytes))) return;
  const items = itemTargets(action, bytes, defaultIndex) ?? [];
  const checked = new Set<string>();
  for (const item of items) {
    const key = `${item.action}\u0000${item.index}`;
    if (checked.has(key)) continue;
    checked.add(key);
    authorizeIndices(principal, item.action, item.index === '' ? [] : item.index.split(','));
  }
}
