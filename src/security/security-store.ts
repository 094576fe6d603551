// The security configuration in effect: the files of `config/opensearch-security/` (or the
// built-in roles and mappings where there is no file), with the changes made through the
// security REST API on top. Those changes live in the system index `.opendistro_security` as
// `<type>/<name>` records (a deletion as a `null` record, so it also hides an entry a file
// defines), and survive restarts; the files stay as they are. Every change rebuilds the model
// and tells the credential caches to forget what they had verified.
import path from 'node:path';
import type { SystemIndex } from '../system/system-index';
import { STATIC_ACTION_GROUPS } from './action-groups';
import { buildSecurityModel, builtInDocs, readSecurityDocs, type Doc, type InternalUser, type SecurityDocType, type SecurityDocs, type SecurityModel } from './security-config';

export type StoredEntry = Doc | null;

interface PendingChange {
  readonly type: SecurityDocType;
  readonly changes: ReadonlyArray<readonly [string, StoredEntry]>;
}

export class SecurityStore {
  private readonly files: SecurityDocs;
  private current: SecurityModel;
  private readonly listeners: Array<() => void> = [];

  constructor(
    confDir: string,
    private readonly system: SystemIndex<unknown>,
    private readonly admin: InternalUser | undefined,
  ) {
    this.files = readSecurityDocs(confDir);
    // At start a refusal names the file; later ones come from the API and name the document.
    this.current = buildSecurityModel(this.docs(), admin, `${path.join(confDir, 'opensearch-security')}${path.sep}`);
  }

  get model(): SecurityModel {
    return this.current;
  }

  /** Called after every change (the caches of verified credentials). */
  onChange(listener: () => void): void {
    this.listeners.push(listener);
  }

  /** A type's entries as in effect, by name (files or built-ins, then the API's changes). */
  entries(type: SecurityDocType): Doc {
    return this.merged(type) ?? {};
  }

  /** OpenSearch's static roles or action groups of a type, which the API shows and cannot change. */
  staticEntries(type: SecurityDocType): Doc {
    if (type === 'roles') return builtInDocs('roles');
    if (type === 'actiongroups') return Object.fromEntries(Object.entries(STATIC_ACTION_GROUPS).map(([k, v]) => [k, { allowed_actions: v }]));
    return {};
  }

  isStatic(type: SecurityDocType, name: string): boolean {
    return Object.prototype.hasOwnProperty.call(this.staticEntries(type), name);
  }

  /** Sets an entry; the whole configuration is rebuilt first, so an entry it refuses is not kept. */
  put(type: SecurityDocType, name: string, entry: Doc): Promise<void> {
    return this.change(type, [[name, entry]]);
  }

  remove(type: SecurityDocType, name: string): Promise<void> {
    return this.change(type, [[name, null]]);
  }

  /**
   * Sets (or, with `null`, deletes) several entries of a type at once: all are checked together
   * before any is kept, so a patch of a collection applies whole or not at all.
   */
  async change(type: SecurityDocType, changes: ReadonlyArray<readonly [string, StoredEntry]>): Promise<void> {
    this.current = this.build(this.docs({ type, changes }));
    await Promise.all(changes.map(([name, entry]) => this.system.put(`${type}/${name}`, entry)));
    for (const l of this.listeners) l();
  }

  private build(docs: SecurityDocs): SecurityModel {
    return buildSecurityModel(docs, this.admin);
  }

  private merged(type: SecurityDocType, change?: PendingChange): Doc | undefined {
    const base = this.files[type] ?? (type === 'rolesmapping' ? builtInDocs('rolesmapping') : undefined);
    const prefix = `${type}/`;
    const changes: Array<readonly [string, StoredEntry]> = this.system
      .entries()
      .filter(([k]) => k.startsWith(prefix))
      .map(([k, v]) => [k.slice(prefix.length), v as StoredEntry]);
    if (change !== undefined && change.type === type) changes.push(...change.changes);
    if (changes.length === 0) return base;
    const out: Doc = { ...(base ?? {}) };
    for (const [name, entry] of changes) {
      if (entry === null) delete out[name];
      else out[name] = entry;
    }
    return out;
  }

  private docs(change?: PendingChange): SecurityDocs {
    return {
      config: this.files.config,
      internalusers: this.merged('internalusers', change),
      roles: this.merged('roles', change),
      rolesmapping: this.merged('rolesmapping', change),
      actiongroups: this.merged('actiongroups', change),
    };
  }
}
