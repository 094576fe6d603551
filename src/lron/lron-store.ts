// Notification settings on disk: the system index `.opensearch-control-center`, one record per
// setting id. Like the index OpenSearch keeps them in, it exists from the first write on (reads
// before that find no index), gives each write a sequence number and each record a version, and
// has a uuid its errors name. Those index facts live in one record under `_meta`, an id no
// setting can have (setting ids start with `LRON:`).
import { randomBytes } from 'node:crypto';
import { OpenSearchError } from '../http/errors';
import { SystemIndex } from '../system/system-index';
import { priorityOf, type LronConfig } from './lron-config';

export const CONTROL_CENTER_INDEX = '.opensearch-control-center';
const META_ID = '_meta';

export interface StoredLron {
  readonly lron_config: LronConfig;
  readonly priority: number;
  readonly version: number;
  readonly seq_no: number;
}

interface IndexMeta {
  readonly index_uuid: string;
  /** The last sequence number given to a write. */
  readonly seq_no: number;
}

type IndexRecord = StoredLron | IndexMeta;

/** `DocWriteResponse` of a delete, as OpenSearch's index answers it (refresh=true). */
export interface DeleteResult {
  readonly found: boolean;
  readonly version: number;
  readonly seqNo: number;
}

function isMeta(r: IndexRecord | undefined): r is IndexMeta {
  return r !== undefined && 'index_uuid' in r;
}

export class LronStore {
  private constructor(private readonly index: SystemIndex<IndexRecord>) {}

  static open(dataPath: string): LronStore {
    return new LronStore(SystemIndex.open<IndexRecord>(dataPath, CONTROL_CENTER_INDEX));
  }

  private get meta(): IndexMeta | undefined {
    const m = this.index.get(META_ID);
    return isMeta(m) ? m : undefined;
  }

  /** Whether the index exists (a setting was written once). */
  get exists(): boolean {
    return this.meta !== undefined;
  }

  get indexUuid(): string {
    return this.meta?.index_uuid ?? '_na_';
  }

  get(id: string): StoredLron | undefined {
    const r = id === META_ID ? undefined : this.index.get(id);
    return isMeta(r) ? undefined : r;
  }

  /** Every setting, in index order. */
  entries(): Array<[string, StoredLron]> {
    return this.index.entries().filter((e): e is [string, StoredLron] => e[0] !== META_ID && !isMeta(e[1]));
  }

  /**
   * The next sequence number, creating the index (its uuid) on the first write. `saved` settles
   * once the index facts are on disk; a record written right after saves them with it anyway
   * (every save writes the whole set).
   */
  private nextSeqNo(): { seqNo: number; saved: Promise<void> } {
    // 16 random bytes as OpenSearch prints index uuids: 22 URL-safe base64 characters.
    const meta = this.meta ?? { index_uuid: randomBytes(16).toString('base64url'), seq_no: -1 };
    const seqNo = meta.seq_no + 1;
    return { seqNo, saved: this.index.put(META_ID, { index_uuid: meta.index_uuid, seq_no: seqNo }) };
  }

  /** Writes `config` under `id`; with `create`, refuses an id in use (opType CREATE). */
  async put(id: string, config: LronConfig, create: boolean): Promise<void> {
    const existing = this.get(id);
    if (existing !== undefined && create) throw this.versionConflict(id, existing.version);
    const { seqNo, saved } = this.nextSeqNo();
    await Promise.all([saved, this.index.put(id, { lron_config: config, priority: priorityOf(config), version: (existing?.version ?? 0) + 1, seq_no: seqNo })]);
  }

  async delete(id: string): Promise<DeleteResult> {
    const existing = this.get(id);
    const { seqNo, saved } = this.nextSeqNo();
    if (existing === undefined) {
      await saved;
      return { found: false, version: 1, seqNo };
    }
    await Promise.all([saved, this.index.delete(id)]);
    return { found: true, version: existing.version + 1, seqNo };
  }

  private versionConflict(id: string, version: number): OpenSearchError {
    return new OpenSearchError(409, 'version_conflict_engine_exception', `[${id}]: version conflict, document already exists (current version [${version}])`, {
      index: CONTROL_CENTER_INDEX,
      shard: '0',
      index_uuid: this.indexUuid,
    });
  }
}
