// Action groups: names for sets of action patterns, as the security plugin's
// static_action_groups.yml defines them, plus those of action_groups.yml. A role's
// `allowed_actions` and `cluster_permissions` mix group names and action patterns.

export const STATIC_ACTION_GROUPS: Readonly<Record<string, readonly string[]>> = {
  unlimited: ['*'],
  cluster_all: ['cluster:*'],
  cluster_monitor: ['cluster:monitor/*'],
  cluster_composite_ops_ro: [
    'indices:data/read/mget',
    'indices:data/read/msearch*',
    'indices:data/read/mtv',
    'indices:admin/aliases/exists*',
    'indices:admin/aliases/get*',
    'indices:data/read/scroll*',
    'indices:admin/resolve/index',
  ],
  cluster_composite_ops: ['indices:data/write/bulk', 'indices:admin/aliases*', 'indices:data/write/reindex', 'cluster_composite_ops_ro'],
  cluster_manage_index_templates: ['indices:admin/template/*', 'indices:admin/index_template/*'],
  cluster_manage_pipelines: ['cluster:admin/ingest/pipeline/*'],
  indices_all: ['indices:*'],
  indices_monitor: ['indices:monitor/*'],
  read: ['indices:data/read*', 'indices:admin/mappings/fields/get*', 'indices:admin/resolve/index'],
  write: ['indices:data/write*', 'indices:admin/mapping/put'],
  crud: ['read', 'write'],
  search: ['indices:data/read/search*', 'indices:data/read/msearch*', 'indices:admin/resolve/index', 'suggest'],
  get: ['indices:data/read/get*', 'indices:data/read/mget*'],
  index: ['indices:data/write/index*', 'indices:data/write/update*', 'indices:admin/mapping/put', 'indices:data/write/bulk*'],
  delete: ['indices:data/write/delete*', 'indices:data/write/bulk*'],
  manage: ['indices:monitor/*', 'indices:admin/*'],
  create_index: ['indices:admin/create', 'indices:admin/mapping/put'],
  manage_aliases: ['indices:admin/aliases*'],
};

/** Expands group names (recursively, each once) into the action patterns they stand for. */
export function expandActions(entries: readonly string[], groups: Readonly<Record<string, readonly string[]>>): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  const visit = (entry: string): void => {
    const members = groups[entry];
    if (members === undefined) {
      out.push(entry);
      return;
    }
    if (seen.has(entry)) return;
    seen.add(entry);
    for (const m of members) visit(m);
  };
  for (const e of entries) visit(e);
  return out;
}
