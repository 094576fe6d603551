// The typed facade over the native addon: the only importer of src/native/. Every request is
// one call carrying the raw body bytes; the engine answers with a status and final JSON bytes.
import path from 'node:path';
import { fromEngineError } from '../http/render-error';

interface NativeResponse {
  status: number;
  body: Buffer;
  location?: string | null;
}

interface NativeEngine {
  readonly nodeId: string;
  readonly clusterUuid: string;
  readonly spent: Buffer[];
  execute(action: string, params: string, body?: Buffer | readonly Buffer[] | null, task?: number): Promise<NativeResponse>;
  cancel(task: number): void;
  forgetCancel(task: number): void;
  close(): Promise<void>;
}

interface NativeModule {
  Engine: { open(config: Buffer): NativeEngine };
}

// Resolved from the package root so the same code runs from src/ (tests) and dist/ (start).
const addonPath = path.resolve(__dirname, '..', '..', 'src', 'native', 'index.js');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const native = require(addonPath) as NativeModule;

export interface EngineConfig {
  dataPath: string;
  nodeName: string;
  clusterName: string;
  autoCreateIndex: string;
  /** `network.host`: an address `_only_nodes` criteria may name. */
  host: string;
}

export interface EngineResponse {
  status: number;
  body: Buffer;
  /** `Location` header of a created document. */
  location?: string | null;
}

/** Parameters handed to the engine: path and query values as strings. */
export type EngineParams = Record<string, string>;

function rethrowEngineError(e: unknown): never {
  throw fromEngineError(e);
}

export class Engine {
  private readonly spent: Buffer[];

  private constructor(private readonly inner: NativeEngine) {
    this.spent = inner.spent;
  }

  static open(config: EngineConfig): Engine {
    const json = JSON.stringify({
      data_path: config.dataPath,
      node_name: config.nodeName,
      cluster_name: config.clusterName,
      auto_create_index: config.autoCreateIndex,
      host: config.host,
    });
    try {
      return new Engine(native.Engine.open(Buffer.from(json)));
    } catch (e) {
      throw fromEngineError(e);
    }
  }

  get nodeId(): string {
    return this.inner.nodeId;
  }

  get clusterUuid(): string {
    return this.inner.clusterUuid;
  }

  /**
   * `body` may be the chunks a request body arrived in: the engine joins them on its pool, and
   * the call consumes them (each chunk that is a whole ArrayBuffer is detached, its memory freed,
   * when the promise settles). A single Buffer is only read.
   */
  execute(action: string, params: EngineParams, body?: Buffer | readonly Buffer[], task?: number): Promise<EngineResponse> {
    try {
      const json = JSON.stringify(params);
      const pending = task === undefined ? this.inner.execute(action, json, body ?? null) : this.inner.execute(action, json, body ?? null, task);
      return pending.then(undefined, rethrowEngineError);
    } catch (e) {
      // Argument decoding fails synchronously.
      return Promise.reject(fromEngineError(e));
    }
  }

  /** Cancels the running request of task `task` (one given to `execute`). */
  cancel(task: number): void {
    this.inner.cancel(task);
  }

  /** Drops the cancel of a task whose request had finished before the cancel reached it. */
  forgetCancel(task: number): void {
    this.inner.forgetCancel(task);
  }

  /**
   * Hands back a response body once it is written: the next call to settle frees its memory
   * (a plain push, no call into the addon). Left to the GC, large bodies brought on a V8
   * mark-compact every ~100 ms under search load. `body` must not be read again.
   */
  recycle(body: Buffer): void {
    this.spent.push(body);
  }

  async close(): Promise<void> {
    await this.inner.close();
  }
}
