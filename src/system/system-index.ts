// A system index: documents that one module of the node owns (API keys, notification settings,
// channels), keyed by `_id`, durable on disk, and out of reach of the REST and index APIs.
//
// They live beside the engine's indices, not in them: each is one JSON file under
// `<path.data>/_system/`, rewritten atomically on every change (temp file, fsync, rename, fsync
// of the directory), so a killed process leaves either the old set or the new one. These sets
// are small (a few thousand records at most) and written rarely, so whole-file rewrites cost
// less than an engine index would in memory, and no search or index API can name them.
import { closeSync, fsyncSync, mkdirSync, openSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import path from 'node:path';

/** Names the node keeps for its system indices; requests that name one are refused. */
const reserved = new Set<string>();

export function isSystemIndexName(name: string): boolean {
  return reserved.has(name);
}

/** Whether a request body spells a system index's name anywhere (a byte search, no parsing). */
export function mentionsSystemIndex(body: Buffer): boolean {
  for (const name of reserved) if (body.includes(name)) return true;
  return false;
}

function fsyncPath(p: string, flags: string): void {
  const fd = openSync(p, flags);
  try {
    fsyncSync(fd);
  } finally {
    closeSync(fd);
  }
}

export class SystemIndex<T> {
  private readonly docs: Map<string, T>;
  private readonly file: string;
  private readonly dir: string;
  /** Writes run one after another, each saving the set as it is when it runs. */
  private writes: Promise<void> = Promise.resolve();

  private constructor(
    readonly name: string,
    dir: string,
    docs: Map<string, T>,
  ) {
    this.dir = dir;
    this.file = path.join(dir, `${name}.json`);
    this.docs = docs;
  }

  /** Loads `<dataPath>/_system/<name>.json` (empty when absent) and reserves the name. */
  static open<T>(dataPath: string, name: string): SystemIndex<T> {
    const dir = path.join(dataPath, '_system');
    mkdirSync(dir, { recursive: true });
    const docs = new Map<string, T>();
    let text: string | undefined;
    try {
      text = readFileSync(path.join(dir, `${name}.json`), 'utf8');
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'ENOENT') throw err;
    }
    if (text !== undefined) {
      const parsed = JSON.parse(text) as { docs: Array<[string, T]> };
      for (const [id, doc] of parsed.docs) docs.set(id, doc);
    }
    reserved.add(name);
    return new SystemIndex<T>(name, dir, docs);
  }

  get(id: string): T | undefined {
    return this.docs.get(id);
  }

  has(id: string): boolean {
    return this.docs.has(id);
  }

  get size(): number {
    return this.docs.size;
  }

  /** Every document, in the order they were first written. */
  entries(): Array<[string, T]> {
    return [...this.docs];
  }

  /** Stores `doc` under `id`; settles once it is on disk. */
  put(id: string, doc: T): Promise<void> {
    this.docs.set(id, doc);
    return this.save();
  }

  /** Removes `id`; settles with whether it was there, once the removal is on disk. */
  async delete(id: string): Promise<boolean> {
    if (!this.docs.delete(id)) return false;
    await this.save();
    return true;
  }

  /** Removes every document; settles once the empty set is on disk. */
  clear(): Promise<void> {
    this.docs.clear();
    return this.save();
  }

  private save(): Promise<void> {
    const run = this.writes.then(() => this.writeNow());
    // A failed write must not stop the ones after it from trying; its caller sees the error.
    this.writes = run.catch(() => undefined);
    return run;
  }

  private writeNow(): void {
    const tmp = `${this.file}.tmp`;
    writeFileSync(tmp, JSON.stringify({ docs: [...this.docs] }));
    fsyncPath(tmp, 'r+');
    renameSync(tmp, this.file);
    fsyncPath(this.dir, 'r');
  }
}
