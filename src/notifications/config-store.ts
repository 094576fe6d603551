// Notification configs on disk: the system index `.opensearch-notifications-config`, one record
// per config id with its creation and update times and its version (which a create on an id in
// use reports, as OpenSearch's index does).
import { randomBytes } from 'node:crypto';
import { SystemIndex } from '../system/system-index';
import { configExists } from './errors';
import type { NotificationConfig } from './notification-config';

export const CONFIG_INDEX = '.opensearch-notifications-config';

export interface StoredConfig {
  readonly config: NotificationConfig;
  readonly created_time_ms: number;
  readonly last_updated_time_ms: number;
  readonly version: number;
}

/** OpenSearch's auto-generated ids: 20 URL-safe base64 characters (15 random bytes here). */
function newId(): string {
  return randomBytes(15).toString('base64url');
}

export class ConfigStore {
  private constructor(private readonly index: SystemIndex<StoredConfig>) {}

  static open(dataPath: string): ConfigStore {
    return new ConfigStore(SystemIndex.open<StoredConfig>(dataPath, CONFIG_INDEX));
  }

  get(id: string): StoredConfig | undefined {
    return this.index.get(id);
  }

  /** Every config, in the order they were first written (the index order ties sort in). */
  entries(): Array<[string, StoredConfig]> {
    return this.index.entries();
  }

  /** Stores a new config under `id` (or a generated one); refuses an id in use. */
  async create(id: string | undefined, config: NotificationConfig, now: number): Promise<string> {
    let docId = id ?? newId();
    while (id === undefined && this.index.has(docId)) docId = newId();
    const existing = this.index.get(docId);
    if (existing !== undefined) throw configExists(docId, existing.version);
    await this.index.put(docId, { config, created_time_ms: now, last_updated_time_ms: now, version: 1 });
    return docId;
  }

  /** Replaces the config of an existing record, keeping its creation time. */
  async update(id: string, previous: StoredConfig, config: NotificationConfig, now: number): Promise<void> {
    await this.index.put(id, { config, created_time_ms: previous.created_time_ms, last_updated_time_ms: now, version: previous.version + 1 });
  }

  delete(id: string): Promise<boolean> {
    return this.index.delete(id);
  }
}
