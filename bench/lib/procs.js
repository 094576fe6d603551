'use strict';
// Child processes for the benches: a fresh Quarry node (fresh data dir), the bare fastify
// hello-world peer, the Rust engine bench. Optional CPU pinning with taskset.
const { spawn, spawnSync, execFileSync } = require('node:child_process');
const fs = require('node:fs');
const net = require('node:net');
const os = require('node:os');
const path = require('node:path');

const ROOT = path.resolve(__dirname, '..', '..');

function freePort() {
  return new Promise((resolve, reject) => {
    const s = net.createServer();
    s.unref();
    s.on('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });
}

let tasksetOk;
function hasTaskset() {
  if (tasksetOk === undefined) {
    tasksetOk = spawnSync('taskset', ['-c', '0', 'true']).status === 0;
  }
  return tasksetOk;
}

/** [cmd, args] prefixed with `taskset -c <cpus>` when cpus is given and taskset works. */
function pinned(cpus, cmd, args) {
  if (cpus != null && cpus !== '' && hasTaskset()) return ['taskset', ['-c', String(cpus), cmd, ...args]];
  return [cmd, args];
}

function waitForLine(child, re, timeoutMs, label) {
  return new Promise((resolve, reject) => {
    let out = '';
    const timer = setTimeout(() => reject(new Error(`${label} did not start in ${timeoutMs} ms:\n${out}`)), timeoutMs);
    const onData = (d) => {
      out += d;
      const m = re.exec(out);
      if (m) {
        clearTimeout(timer);
        child.stdout.off('data', onData);
        child.stderr.off('data', onData);
        // Keep draining so the child never blocks on a full pipe.
        child.stdout.resume();
        child.stderr.resume();
        resolve(m);
      }
    };
    child.stdout.on('data', onData);
    child.stderr.on('data', onData);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`${label} exited with ${code} before it was ready:\n${out}`));
    });
  });
}

function stopper(child) {
  return () =>
    new Promise((resolve) => {
      if (child.exitCode !== null || child.signalCode !== null) return resolve();
      const t = setTimeout(() => child.kill('SIGKILL'), 10000);
      child.once('exit', () => {
        clearTimeout(t);
        resolve();
      });
      child.kill('SIGTERM');
    });
}

// The tree is shared: a rebuild elsewhere overwrites src/native/*.node in place, which kills a
// running server (its mapped library is truncated), and rewrites dist/ under it. So the benches
// run Quarry from a snapshot of dist/ and src/native/ taken once per process (node_modules still
// resolve from the repository root above it). QUARRY_BENCH_LIVE=1 runs the live tree instead.
let snapshot;
function quarryServerJs() {
  if (process.env.QUARRY_BENCH_LIVE === '1') return path.join(ROOT, 'dist', 'server.js');
  if (!snapshot) {
    const dir = path.join(ROOT, 'bench', '.cache', `quarry-${process.pid}`);
    fs.rmSync(dir, { recursive: true, force: true });
    fs.cpSync(path.join(ROOT, 'dist'), path.join(dir, 'dist'), { recursive: true });
    fs.cpSync(path.join(ROOT, 'src', 'native'), path.join(dir, 'src', 'native'), { recursive: true });
    const addon = fs.readdirSync(path.join(ROOT, 'src', 'native')).find((f) => f.endsWith('.node'));
    snapshot = { dir, server: path.join(dir, 'dist', 'server.js'), addon_mtime: addon ? fs.statSync(path.join(ROOT, 'src', 'native', addon)).mtime.toISOString() : null };
    process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  }
  return snapshot.server;
}
function quarryBuildInfo() {
  quarryServerJs();
  return snapshot ? { snapshot: true, addon_mtime: snapshot.addon_mtime } : { snapshot: false };
}

const TIMING_PRELOAD = path.join(__dirname, 'server-timing.js');

/**
 * With `timed`, a server runs with lib/server-timing.js preloaded: node arguments to prepend, its
 * environment, and `takeTimings()`, which resolves to the in-server times (ms) of the requests
 * answered since the last take (`timed` may be `{ path }`: only the requests for that URL).
 */
function timing(timed) {
  if (!timed) return { nodeArgs: [], env: process.env, take: null };
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-timing-'));
  process.once('exit', () => fs.rmSync(dir, { recursive: true, force: true }));
  const file = path.join(dir, 'times.json');
  const take = async (pid) => {
    fs.rmSync(file, { force: true });
    process.kill(pid, 'SIGUSR2');
    for (let i = 0; i < 1000; i++) {
      if (fs.existsSync(file)) return JSON.parse(fs.readFileSync(file, 'utf8'));
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`server ${pid} wrote no timings to ${file}`);
  };
  const env = { ...process.env, QUARRY_BENCH_TIMING: file };
  if (typeof timed === 'object' && timed.path !== undefined) env.QUARRY_BENCH_TIMING_PATH = timed.path;
  return { nodeArgs: ['-r', TIMING_PRELOAD], env, take };
}

/** Starts `node dist/server.js` on a fresh data dir; resolves when it prints "listening on". */
async function startQuarry({ cpus, dataDir, keepData = false, settings = {}, timed = false, env = {}, headers = {} } = {}) {
  const port = await freePort();
  const dir = dataDir ?? fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-'));
  const t = timing(timed);
  const t0 = process.hrtime.bigint();
  const [cmd, args] = pinned(cpus, process.execPath, [
    ...t.nodeArgs,
    quarryServerJs(),
    '-E', `http.port=${port}`,
    '-E', `path.data=${dir}`,
    // The OpenSearch it is measured against runs without its security plugin (the security
    // bench turns it on).
    ...('plugins.security.disabled' in settings ? [] : ['-E', 'plugins.security.disabled=true']),
    ...Object.entries(settings).flatMap(([k, v]) => ['-E', `${k}=${v}`]),
  ]);
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: { ...t.env, ...env } });
  await waitForLine(child, /listening on/, 30000, 'quarry');
  const listeningMs = Number(process.hrtime.bigint() - t0) / 1e6;
  // Start-up is measured as OpenSearch's is: spawn → first `GET /` answered 200.
  await firstGet(`http://127.0.0.1:${port}/`, headers);
  const startupMs = Number(process.hrtime.bigint() - t0) / 1e6;
  const stop = stopper(child);
  return {
    name: 'quarry',
    pid: child.pid,
    url: `http://127.0.0.1:${port}`,
    port,
    dataDir: dir,
    startupMs,
    listeningMs,
    child,
    takeTimings: t.take && (() => t.take(child.pid)),
    async stop() {
      await stop();
      if (!keepData && !dataDir) fs.rmSync(dir, { recursive: true, force: true });
    },
  };
}

function firstGet(url, headers = {}) {
  const http = require('node:http');
  const once = () =>
    new Promise((resolve) => {
      const req = http.get(url, { headers }, (res) => {
        res.resume();
        res.on('end', () => resolve(res.statusCode === 200));
      });
      req.on('error', () => resolve(false));
    });
  return (async () => {
    for (let i = 0; i < 2000; i++) {
      if (await once()) return;
      await new Promise((r) => setTimeout(r, 5));
    }
    throw new Error(`no 200 from ${url}`);
  })();
}

/** Starts bench/hello.js (bare fastify, `GET /` → {"hello":"world"}). */
async function startHello({ cpus, timed = false } = {}) {
  const port = await freePort();
  const t = timing(timed);
  const [cmd, args] = pinned(cpus, process.execPath, [...t.nodeArgs, path.join(__dirname, '..', 'hello.js'), String(port)]);
  const child = spawn(cmd, args, { cwd: ROOT, stdio: ['ignore', 'pipe', 'pipe'], env: t.env });
  await waitForLine(child, /listening on/, 15000, 'fastify hello');
  return { name: 'fastify-hello', pid: child.pid, url: `http://127.0.0.1:${port}`, port, child, takeTimings: t.take && (() => t.take(child.pid)), stop: stopper(child) };
}

/** Runs a node script as a child (optionally pinned) and parses the last stdout line as JSON. */
function runJsonChild(script, args, { cpus } = {}) {
  return new Promise((resolve, reject) => {
    const [cmd, a] = pinned(cpus, process.execPath, [script, ...args]);
    const child = spawn(cmd, a, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`${path.basename(script)} exited with ${code}\n${out}`));
      const lines = out.trim().split('\n');
      try {
        resolve(JSON.parse(lines[lines.length - 1]));
      } catch (e) {
        reject(new Error(`bad JSON from ${script}: ${out}`));
      }
    });
  });
}

/** Builds a Rust engine bench (crates/engine/benches/<name>.rs) in release and returns its executable path. */
function buildEngineBench(name = 'ingest') {
  const out = execFileSync(
    'cargo',
    ['bench', '-p', 'quarry-engine', '--bench', name, '--no-run', '--message-format=json'],
    { cwd: ROOT, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'], maxBuffer: 64 << 20 },
  );
  let exe;
  for (const line of out.split('\n')) {
    if (!line.startsWith('{')) continue;
    const m = JSON.parse(line);
    if (m.reason === 'compiler-artifact' && m.target?.name === name && m.executable) exe = m.executable;
  }
  if (!exe) throw new Error(`cargo did not report the ${name} bench executable`);
  return exe;
}

/** Runs the engine bench binary; resolves with its JSON result lines. */
function runEngineBench(exe, args, { cpus } = {}) {
  return new Promise((resolve, reject) => {
    const [cmd, a] = pinned(cpus, exe, [...args, '--json']);
    const child = spawn(cmd, a, { cwd: ROOT, stdio: ['ignore', 'pipe', 'inherit'] });
    let out = '';
    child.stdout.on('data', (d) => (out += d));
    child.on('error', reject);
    child.on('exit', (code) => {
      if (code !== 0) return reject(new Error(`engine bench exited with ${code}\n${out}`));
      resolve(out.trim().split('\n').filter((l) => l.startsWith('{')).map((l) => JSON.parse(l)));
    });
  });
}

module.exports = { quarryBuildInfo, ROOT, freePort, hasTaskset, pinned, startQuarry, startHello, runJsonChild, buildEngineBench, runEngineBench };
