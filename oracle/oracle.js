#!/usr/bin/env node
// The oracle: a real OpenSearch 2.19 node beside Quarry, so expectations come from the real thing.
//
//   npm run oracle -- start    build (first time: Maven downloads ~150 MB into ~/.m2), start, wait for GET /
//   npm run oracle -- stop     SIGTERM, wait for the JVM to exit, delete the data directory
//   npm run oracle -- status   running or not, version, cluster health
//
// The node is embedded (oracle/src/main/java/oracle/OracleNode.java; ../shared/reference/oracle.md §3):
// the distribution's launcher refuses to run as root and Maven Central has no full distribution, so
// we start org.opensearch.node.Node from the Maven jars in a plain JVM on JDK 17.
//
// Settings (environment):
//   ORACLE_PORT   HTTP port, default 9201 (transport port is HTTP + 100)
//   ORACLE_HEAP   JVM heap (-Xms and -Xmx), default 512m
//   JAVA_HOME     JDK to use; default `java` on PATH. OpenSearch 2.19 runs on JDK 11..21.
'use strict';

const { spawn, spawnSync } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const http = require('node:http');

const ORACLE_DIR = __dirname;
const REPO = path.resolve(ORACLE_DIR, '..');
const STATE_DIR = path.join(REPO, '.oracle');
const STATE_FILE = path.join(STATE_DIR, 'oracle.json');
const PID_FILE = path.join(STATE_DIR, 'oracle.pid');
const LOG_FILE = path.join(STATE_DIR, 'oracle.log');
const CLASSES = path.join(ORACLE_DIR, 'target', 'classes');
const CLASSPATH_FILE = path.join(ORACLE_DIR, 'target', 'cp.txt');
const BUILD_STAMP = path.join(ORACLE_DIR, 'target', 'oracle.stamp');

const PORT = Number(process.env.ORACLE_PORT || 9201);
const HEAP = process.env.ORACLE_HEAP || '512m';
const START_TIMEOUT_MS = 180_000;
const STOP_TIMEOUT_MS = 30_000;

// Node settings, as `-E` flags. Names and values are OpenSearch's own.
function nodeSettings(dataDir) {
  return {
    'cluster.name': 'opensearch', // OpenSearch's default
    'node.name': 'oracle',
    'path.data': path.join(dataDir, 'data'),
    'path.logs': path.join(dataDir, 'logs'),
    'network.host': '127.0.0.1',
    'http.port': String(PORT),
    'transport.port': String(PORT + 100),
    'discovery.type': 'single-node',
    // A nearly full disk would otherwise flip indices to read-only and fail scenarios for no reason.
    'cluster.routing.allocation.disk.threshold_enabled': 'false',
    // Recording compiles many inline templates; past the default 75 per 5 minutes OpenSearch
    // answers 429 (Quarry compiles without such a limit).
    'script.max_compilations_rate': '100000/1m',
  };
}

// JVM flags: the heap, plus the system properties the distribution's launcher adds on JDK 17
// (opensearch-launchers SystemJvmOptions and config/jvm.options of 2.19.1), because some of them
// change what the REST API answers: the locale providers decide date parsing and formatting, and
// the distribution type is `build_type` in GET /. Left out: the security manager (not used
// embedded), heap dumps and GC logs.
function jvmFlags(tmpDir) {
  return [
    `-Xms${HEAP}`,
    `-Xmx${HEAP}`,
    '-XX:+UseG1GC',
    '-XX:G1ReservePercent=25',
    '-XX:InitiatingHeapOccupancyPercent=30',
    '-Xss1m',
    `-Djava.io.tmpdir=${tmpDir}`,
    '-Djava.awt.headless=true',
    '-Dfile.encoding=UTF-8',
    '-Djna.nosys=true',
    '-XX:-OmitStackTraceInFastThrow',
    '-XX:+ShowCodeDetailsInExceptionMessages',
    '-Dopensearch.networkaddress.cache.ttl=60',
    '-Dopensearch.networkaddress.cache.negative.ttl=10',
    '-Dio.netty.noUnsafe=true',
    '-Dio.netty.noKeySetOptimization=true',
    '-Dio.netty.recycler.maxCapacityPerThread=0',
    '-Dio.netty.allocator.numDirectArenas=0',
    '-Dlog4j.shutdownHookEnabled=false', // the node's own shutdown hook must still be able to log
    '-Dlog4j2.disable.jmx=true',
    '-Djava.locale.providers=SPI,COMPAT',
    '-Dopensearch.distribution.type=tar',
    '-Dopensearch.bundled_jdk=true',
  ];
}

function javaBin() {
  return process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

function log(msg) {
  process.stdout.write(`oracle: ${msg}\n`);
}

function fail(msg) {
  process.stderr.write(`oracle: ${msg}\n`);
  process.exit(1);
}

function readState() {
  try {
    return JSON.parse(fs.readFileSync(STATE_FILE, 'utf8'));
  } catch {
    return null;
  }
}

function clearState() {
  fs.rmSync(STATE_FILE, { force: true });
  fs.rmSync(PID_FILE, { force: true });
}

function alive(pid) {
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return e.code === 'EPERM';
  }
}

// Guards against signalling a recycled pid: the process must still be our Java node.
function isOurNode(pid) {
  try {
    const cmdline = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8');
    return cmdline.includes('oracle.OracleNode');
  } catch {
    return false;
  }
}

function get(pathname, timeoutMs = 2000) {
  return new Promise((resolve) => {
    const req = http.get({ host: '127.0.0.1', port: PORT, path: pathname, timeout: timeoutMs }, (res) => {
      let body = '';
      res.setEncoding('utf8');
      res.on('data', (c) => (body += c));
      res.on('end', () => resolve({ status: res.statusCode, body }));
    });
    req.on('timeout', () => req.destroy());
    req.on('error', () => resolve(null));
  });
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

function newestMtime(dir) {
  let newest = 0;
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, entry.name);
    newest = Math.max(newest, entry.isDirectory() ? newestMtime(p) : fs.statSync(p).mtimeMs);
  }
  return newest;
}

// Compiles the launcher and resolves the classpath with Maven, unless the last build is newer than
// the sources (so later starts take seconds and need no network). A stamp file marks a finished
// build: Maven leaves cp.txt and the classes untouched when nothing changed.
function build() {
  if (fs.existsSync(BUILD_STAMP) && fs.existsSync(CLASSPATH_FILE)) {
    const built = fs.statSync(BUILD_STAMP).mtimeMs;
    const sources = Math.max(newestMtime(path.join(ORACLE_DIR, 'src')), fs.statSync(path.join(ORACLE_DIR, 'pom.xml')).mtimeMs);
    const jars = fs.readFileSync(CLASSPATH_FILE, 'utf8').trim().split(path.delimiter);
    if (built >= sources && jars.every((j) => fs.existsSync(j))) return;
  }
  log('building with Maven (the first run downloads OpenSearch into ~/.m2)...');
  const r = spawnSync(
    'mvn',
    ['-q', '-B', '-Dstyle.color=never', '-f', path.join(ORACLE_DIR, 'pom.xml'), 'compile', 'dependency:build-classpath', `-Dmdep.outputFile=${CLASSPATH_FILE}`],
    { encoding: 'utf8' },
  );
  if (r.error) fail(`cannot run mvn: ${r.error.message}`);
  // Maven's output only matters when it failed (quiet mode still prints colour resets).
  if (r.status !== 0) fail(`mvn failed with status ${r.status}:\n${r.stdout}${r.stderr}`);
  fs.writeFileSync(BUILD_STAMP, `${new Date().toISOString()}\n`);
}

async function start() {
  const state = readState();
  if (state && alive(state.pid) && isOurNode(state.pid)) {
    if (await get('/')) {
      log(`already running (pid ${state.pid}) on http://127.0.0.1:${PORT}`);
      return;
    }
    fail(`pid ${state.pid} is running but does not answer; run stop first`);
  }
  clearState();
  if (await get('/')) fail(`something else already answers on port ${PORT}`);

  const java = spawnSync(javaBin(), ['-version'], { encoding: 'utf8' });
  if (java.error) fail(`cannot run ${javaBin()}: ${java.error.message} (set JAVA_HOME)`);
  // OpenSearch 2.19 supports JDK 11 to 21 (it bundles 21); the project's machines have 17.
  const major = Number(/version "(\d+)/.exec(java.stderr)?.[1]);
  if (!(major >= 11 && major <= 21)) fail(`OpenSearch 2.19 needs JDK 11 to 21, ${javaBin()} is ${major || 'unknown'} (set JAVA_HOME)`);
  build();

  fs.mkdirSync(STATE_DIR, { recursive: true });
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-oracle-'));
  const tmpDir = path.join(dataDir, 'tmp');
  fs.mkdirSync(tmpDir);
  const classpath = [CLASSES, fs.readFileSync(CLASSPATH_FILE, 'utf8').trim()].join(path.delimiter);
  const args = [...jvmFlags(tmpDir), '-cp', classpath, 'oracle.OracleNode', path.join(dataDir, 'home')];
  for (const [k, v] of Object.entries(nodeSettings(dataDir))) args.push('-E', `${k}=${v}`);

  const out = fs.openSync(LOG_FILE, 'w');
  // Detached with its own process group so that Ctrl-C on a later npm command does not reach it.
  const child = spawn(javaBin(), args, { detached: true, stdio: ['ignore', out, out] });
  fs.closeSync(out);
  child.unref();
  const startedAt = Date.now();
  fs.writeFileSync(STATE_FILE, JSON.stringify({ pid: child.pid, port: PORT, heap: HEAP, dataDir, startedAt: new Date(startedAt).toISOString() }, null, 2) + '\n');
  fs.writeFileSync(PID_FILE, `${child.pid}\n`);
  log(`starting OpenSearch (pid ${child.pid}, heap ${HEAP}, data ${dataDir}); log in ${path.relative(REPO, LOG_FILE)}`);

  while (Date.now() - startedAt < START_TIMEOUT_MS) {
    if (!alive(child.pid)) {
      const tail = fs.readFileSync(LOG_FILE, 'utf8').split('\n').slice(-30).join('\n');
      fs.rmSync(dataDir, { recursive: true, force: true });
      clearState();
      fail(`the node exited during start-up; last log lines:\n${tail}`);
    }
    const res = await get('/');
    if (res && res.status === 200) {
      const info = JSON.parse(res.body);
      log(`ready in ${((Date.now() - startedAt) / 1000).toFixed(1)}s: OpenSearch ${info.version.number} on http://127.0.0.1:${PORT}`);
      return;
    }
    await sleep(500);
  }
  await stop();
  fail(`no answer from GET / within ${START_TIMEOUT_MS / 1000}s`);
}

async function stop() {
  const state = readState();
  if (!state) {
    log('not running');
    return;
  }
  if (alive(state.pid) && isOurNode(state.pid)) {
    process.kill(state.pid, 'SIGTERM'); // the node's shutdown hook closes it cleanly
    const deadline = Date.now() + STOP_TIMEOUT_MS;
    while (alive(state.pid) && Date.now() < deadline) await sleep(200);
    if (alive(state.pid)) {
      log(`pid ${state.pid} did not exit within ${STOP_TIMEOUT_MS / 1000}s; killing it`);
      process.kill(state.pid, 'SIGKILL');
      while (alive(state.pid)) await sleep(100);
    }
    log(`stopped (pid ${state.pid})`);
  } else {
    log(`pid ${state.pid} is not running; cleaning up`);
  }
  if (state.dataDir && path.basename(state.dataDir).startsWith('quarry-oracle-')) {
    fs.rmSync(state.dataDir, { recursive: true, force: true });
  }
  clearState();
}

async function status() {
  const state = readState();
  if (!state || !alive(state.pid) || !isOurNode(state.pid)) {
    log(state ? `not running (stale state for pid ${state.pid}; run stop to clean up)` : 'not running');
    process.exitCode = 3;
    return;
  }
  const root = await get('/');
  const health = await get('/_cluster/health');
  if (!root) {
    log(`pid ${state.pid} is running but port ${PORT} does not answer (still starting?)`);
    process.exitCode = 1;
    return;
  }
  const info = JSON.parse(root.body);
  const h = health ? JSON.parse(health.body) : {};
  log(`running: pid ${state.pid}, OpenSearch ${info.version.number} on http://127.0.0.1:${state.port}, ` +
    `cluster ${info.cluster_name} ${h.status ?? 'unknown'}, heap ${state.heap}, data ${state.dataDir}, since ${state.startedAt}`);
}

const commands = { start, stop, status };
const cmd = process.argv[2];
if (!commands[cmd]) fail('usage: npm run oracle -- start|stop|status');
commands[cmd]().catch((e) => fail(e.stack || String(e)));
