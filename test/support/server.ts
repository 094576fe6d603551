// Spawns real Quarry server processes for the crash and end-to-end suites: a free loopback port,
// an own temporary data directory, wait for "listening on", kill (SIGKILL or graceful), restart
// on the same data directory, and remove everything in `cleanupServers()` (call it in afterAll).
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';

export const REPO_ROOT = resolve(__dirname, '..', '..');
const SERVER_JS = join(REPO_ROOT, 'dist', 'server.js');
const READY_TIMEOUT_MS = 30_000;
const LOG_LIMIT = 64 * 1024;

/** A free TCP port on 127.0.0.1 (bound then released; the server binds it right after). */
export async function freePort(): Promise<number> {
  return await new Promise<number>((ok, fail) => {
    const srv = createServer();
    srv.unref();
    srv.once('error', fail);
    srv.listen(0, '127.0.0.1', () => {
      const addr = srv.address();
      if (addr === null || typeof addr === 'string') {
        srv.close();
        fail(new Error('no port'));
        return;
      }
      const port = addr.port;
      srv.close(() => ok(port));
    });
  });
}

export interface ServerOptions {
  /** Extra `-E key=value` settings. */
  settings?: Record<string, string>;
  /** Reuse this data directory instead of creating a temporary one (it is not removed). */
  dataDir?: string;
  /** Extra environment variables (e.g. OPENSEARCH_INITIAL_ADMIN_PASSWORD). */
  env?: Record<string, string>;
}

export class QuarryServer {
  readonly dataDir: string;
  port = 0;
  private proc: ChildProcess | undefined;
  private exited: Promise<void> = Promise.resolve();
  private log = '';
  /** How many times the process has been started. */
  starts = 0;

  constructor(
    private readonly settings: Record<string, string>,
    dataDir: string,
    readonly ownsDataDir: boolean,
    private readonly extraEnv: Record<string, string> = {},
  ) {
    this.dataDir = dataDir;
  }

  get url(): string {
    const tls = this.settings['plugins.security.disabled'] === 'false' && this.settings['plugins.security.ssl.http.enabled'] !== 'false';
    return `${tls ? 'https' : 'http'}://127.0.0.1:${this.port}`;
  }

  get running(): boolean {
    return this.proc !== undefined;
  }

  /** The combined stdout/stderr of every start so far (truncated at the front). */
  output(): string {
    return this.log;
  }

  private append(chunk: string): void {
    this.log += chunk;
    if (this.log.length > LOG_LIMIT) this.log = this.log.slice(this.log.length - LOG_LIMIT);
  }

  /** Starts the process on the same data directory and port (a new port on the first start). */
  async start(): Promise<void> {
    if (this.proc) throw new Error('server already running');
    if (!existsSync(SERVER_JS)) throw new Error(`${SERVER_JS} is missing: run \`node scripts/build.js\` first`);
    if (this.port === 0) this.port = await freePort();
    const args = [SERVER_JS, '-E', `http.port=${this.port}`, '-E', `path.data=${this.dataDir}`];
    for (const [k, v] of Object.entries(this.settings)) args.push('-E', `${k}=${v}`);
    this.starts += 1;
    this.append(`--- start #${this.starts} on port ${this.port}\n`);
    // QUARRY_* variables are node settings (DESIGN.md §5): only the ones given here apply.
    const env = { ...Object.fromEntries(Object.entries(process.env).filter(([k]) => !k.startsWith('QUARRY_'))), ...this.extraEnv };
    const proc = spawn(process.execPath, args, { cwd: REPO_ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
    this.proc = proc;
    this.exited = new Promise<void>((ok) => proc.once('exit', () => ok()));
    proc.stderr?.setEncoding('utf8').on('data', (d: string) => this.append(d));
    let stdout = '';
    await new Promise<void>((ok, fail) => {
      const timer = setTimeout(() => {
        cleanup();
        fail(new Error(`server did not become ready within ${READY_TIMEOUT_MS} ms:\n${this.log}`));
      }, READY_TIMEOUT_MS);
      const onData = (d: string): void => {
        this.append(d);
        stdout += d;
        if (stdout.includes('listening on')) {
          cleanup();
          ok();
        }
      };
      const onExit = (code: number | null, signal: string | null): void => {
        cleanup();
        this.proc = undefined;
        fail(new Error(`server exited before ready (code ${code}, signal ${signal}):\n${this.log}`));
      };
      const cleanup = (): void => {
        clearTimeout(timer);
        proc.off('exit', onExit);
        proc.stdout?.off('data', onData);
        // Keep draining stdout so the child never blocks on a full pipe.
        proc.stdout?.on('data', (d: string) => this.append(d));
      };
      proc.stdout?.setEncoding('utf8').on('data', onData);
      proc.once('exit', onExit);
    });
    proc.once('exit', () => {
      if (this.proc === proc) this.proc = undefined;
    });
  }

  /** `kill -9`: no shutdown hook runs; resolves once the process is gone. */
  async kill9(): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    proc.kill('SIGKILL');
    await this.exited;
    this.proc = undefined;
  }

  /** Graceful stop (SIGTERM), falling back to SIGKILL after `graceMs`. */
  async stop(graceMs = 10_000): Promise<void> {
    const proc = this.proc;
    if (!proc) return;
    proc.kill('SIGTERM');
    const timer = setTimeout(() => proc.kill('SIGKILL'), graceMs);
    await this.exited;
    clearTimeout(timer);
    this.proc = undefined;
  }

  /** Kills with SIGKILL (default) or SIGTERM and starts again on the same data directory. */
  async restart(how: 'kill9' | 'graceful' = 'kill9'): Promise<void> {
    if (how === 'kill9') await this.kill9();
    else await this.stop();
    await this.start();
  }
}

const servers: QuarryServer[] = [];

/** Creates (does not start) a server with its own temporary data directory. */
export function createQuarry(opts: ServerOptions = {}): QuarryServer {
  const owns = opts.dataDir === undefined;
  const dataDir = opts.dataDir ?? mkdtempSync(join(tmpdir(), 'quarry-test-'));
  // Security is on by default in a real node; suites that are not about it run without, as a
  // user who sets `plugins.security.disabled: true` would. Security suites turn it back on.
  const server = new QuarryServer({ 'plugins.security.disabled': 'true', ...opts.settings }, dataDir, owns, opts.env);
  servers.push(server);
  return server;
}

/** Creates and starts a server. */
export async function startQuarry(opts: ServerOptions = {}): Promise<QuarryServer> {
  const server = createQuarry(opts);
  await server.start();
  return server;
}

/** Kills every server this process started and removes their temporary data directories
 * (kept, and their paths printed, when QUARRY_TEST_KEEP_DATA is set — for post-mortems). */
export async function cleanupServers(): Promise<void> {
  const all = servers.splice(0);
  await Promise.all(all.map((s) => s.kill9()));
  for (const s of all) {
    if (!s.ownsDataDir) continue;
    if (process.env.QUARRY_TEST_KEEP_DATA) process.stderr.write(`[quarry-test] kept data dir ${s.dataDir}\n`);
    else rmSync(s.dataDir, { recursive: true, force: true });
  }
}
