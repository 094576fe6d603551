// Where the scenarios run: a Quarry this process starts, the oracle on 9201, or any URL.

import { spawn, type ChildProcess } from 'node:child_process';
import * as fs from 'node:fs';
import * as net from 'node:net';
import * as os from 'node:os';
import * as path from 'node:path';
import { send, type Engine } from './runner';

export const REPO_ROOT = path.resolve(__dirname, '..', '..');
export const ORACLE_URL = 'http://127.0.0.1:9201';
const QUARRY_START_TIMEOUT_MS = 30_000;

export interface Target {
  baseUrl: string;
  engine: Engine;
  /** Why the target is not usable; the run then reports every step as failed with it. */
  unavailable?: string;
  stop(): Promise<void>;
}

const sleep = (ms: number) => new Promise((r) => setTimeout(r, ms));

async function rootInfo(baseUrl: string): Promise<{ distribution?: string } | undefined> {
  try {
    const r = await send(baseUrl, 'GET', '/');
    if (r.status !== 200 || !r.json) return undefined;
    return (r.json as { version?: { distribution?: string } }).version ?? {};
  } catch {
    return undefined;
  }
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.on('error', reject);
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
  });
}

function exited(child: ChildProcess): boolean {
  return child.exitCode !== null || child.signalCode !== null;
}

/**
 * Starts `node dist/server.js` on a free port with a fresh data directory, as a user would, and
 * waits for GET / to answer. A Quarry that cannot start is not an exception: the target comes back
 * `unavailable` so that the run still reports (and known-gaps can still account for) every step.
 */
export async function startQuarry(): Promise<Target> {
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-compat-'));
  const baseUrl = `http://127.0.0.1:${port}`;
  const output: string[] = [];
  const child = spawn(process.execPath, ['dist/server.js', '-E', `http.port=${port}`, '-E', `path.data=${dataDir}`, '-E', 'plugins.security.disabled=true'], {
    cwd: REPO_ROOT,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const keep = (chunk: Buffer) => {
    output.push(chunk.toString('utf8'));
    if (output.length > 50) output.shift();
  };
  child.stdout?.on('data', keep);
  child.stderr?.on('data', keep);
  const spawnError = new Promise<Error>((resolve) => child.on('error', resolve));

  const stop = async () => {
    if (!exited(child)) {
      child.kill('SIGTERM');
      const deadline = Date.now() + 5_000;
      while (!exited(child) && Date.now() < deadline) await sleep(50);
      if (!exited(child)) child.kill('SIGKILL');
      while (!exited(child)) await sleep(20);
    }
    fs.rmSync(dataDir, { recursive: true, force: true });
  };

  const started = Date.now();
  let unavailable: string | undefined;
  for (;;) {
    const err = await Promise.race([spawnError, sleep(100).then(() => undefined)]);
    if (err) {
      unavailable = `Quarry could not be spawned: ${err.message}`;
      break;
    }
    if (exited(child)) {
      const tail = output.join('').trim().split('\n').slice(-8).join('\n');
      unavailable = `Quarry exited during start-up (code ${child.exitCode ?? child.signalCode}): ${tail}`;
      break;
    }
    if (await rootInfo(baseUrl)) break;
    if (Date.now() - started > QUARRY_START_TIMEOUT_MS) {
      unavailable = `Quarry did not answer GET / within ${QUARRY_START_TIMEOUT_MS / 1000}s`;
      break;
    }
  }
  const target: Target = { baseUrl, engine: 'quarry', stop };
  if (unavailable) target.unavailable = unavailable;
  return target;
}

/** `quarry` (spawned), `opensearch` (the oracle on 9201) or a URL (engine read from GET /). */
export async function resolveTarget(spec: string, engineOverride?: Engine): Promise<Target> {
  if (spec === 'quarry') return startQuarry();
  const baseUrl = spec === 'opensearch' ? ORACLE_URL : spec.replace(/\/+$/, '');
  if (!/^https?:\/\//.test(baseUrl)) throw new Error(`--target must be quarry, opensearch or a URL (got ${spec})`);
  const info = await rootInfo(baseUrl);
  if (!info) {
    const hint = spec === 'opensearch' ? ' (start it with `npm run oracle -- start`)' : '';
    throw new Error(`nothing answers GET / at ${baseUrl}${hint}`);
  }
  const engine: Engine = engineOverride ?? (spec === 'opensearch' || info.distribution === 'opensearch' ? 'opensearch' : 'quarry');
  return { baseUrl, engine, stop: async () => {} };
}
