'use strict';
// A private, fresh OpenSearch 2.19.1 for the benches: the oracle's build (oracle/target: the same
// Maven Central jars and oracle.OracleNode) with the oracle's JVM flags, but on a free port and a
// fresh data dir, so the shared oracle on :9201 (which the compat tests use) is left alone and
// start-up time, RSS and index size are this node's own. The heap is ORACLE_HEAP, default 1g
// (the OpenSearch distribution's default jvm.options). `npm run oracle -- start` once builds
// oracle/target if needed.
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const os = require('node:os');
const path = require('node:path');
const { ROOT, freePort } = require('./procs');
const { request } = require('./http');

const ORACLE = path.join(ROOT, 'oracle');
const HEAP = process.env.ORACLE_HEAP || '1g';

function jvmFlags(tmpDir) {
  // As oracle/oracle.js jvmFlags (the distribution's launcher flags that change answers included).
  return [
    `-Xms${HEAP}`, `-Xmx${HEAP}`, '-XX:+UseG1GC', '-XX:G1ReservePercent=25', '-XX:InitiatingHeapOccupancyPercent=30', '-Xss1m',
    `-Djava.io.tmpdir=${tmpDir}`, '-Djava.awt.headless=true', '-Dfile.encoding=UTF-8', '-Djna.nosys=true',
    '-XX:-OmitStackTraceInFastThrow', '-XX:+ShowCodeDetailsInExceptionMessages',
    '-Dopensearch.networkaddress.cache.ttl=60', '-Dopensearch.networkaddress.cache.negative.ttl=10',
    '-Dio.netty.noUnsafe=true', '-Dio.netty.noKeySetOptimization=true', '-Dio.netty.recycler.maxCapacityPerThread=0',
    '-Dio.netty.allocator.numDirectArenas=0', '-Dlog4j.shutdownHookEnabled=false', '-Dlog4j2.disable.jmx=true',
    '-Djava.locale.providers=SPI,COMPAT', '-Dopensearch.distribution.type=tar', '-Dopensearch.bundled_jdk=true',
  ];
}

function javaBin() {
  return process.env.JAVA_HOME ? path.join(process.env.JAVA_HOME, 'bin', 'java') : 'java';
}

const sleep = (ms) => new Promise((r) => setTimeout(r, ms));

/** Starts a fresh node; resolves when `GET /` answers 200. startupMs = spawn → first 200. */
async function startOpenSearch() {
  const cpFile = path.join(ORACLE, 'target', 'cp.txt');
  if (!fs.existsSync(cpFile)) throw new Error('oracle/target/cp.txt missing: run `npm run oracle -- start` once to build the oracle');
  const port = await freePort();
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'quarry-bench-os-'));
  const tmpDir = path.join(dataDir, 'tmp');
  fs.mkdirSync(tmpDir);
  const classpath = [path.join(ORACLE, 'target', 'classes'), fs.readFileSync(cpFile, 'utf8').trim()].join(path.delimiter);
  const settings = {
    'cluster.name': 'opensearch',
    'node.name': 'bench',
    'path.data': path.join(dataDir, 'data'),
    'path.logs': path.join(dataDir, 'logs'),
    'network.host': '127.0.0.1',
    'http.port': String(port),
    'transport.port': String(await freePort()),
    'discovery.type': 'single-node',
    'cluster.routing.allocation.disk.threshold_enabled': 'false',
  };
  const args = [...jvmFlags(tmpDir), '-cp', classpath, 'oracle.OracleNode', path.join(dataDir, 'home')];
  for (const [k, v] of Object.entries(settings)) args.push('-E', `${k}=${v}`);
  const logFile = path.join(dataDir, 'node.log');
  const out = fs.openSync(logFile, 'w');
  const t0 = process.hrtime.bigint();
  const child = spawn(javaBin(), args, { stdio: ['ignore', out, out] });
  fs.closeSync(out);
  const url = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + 120000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`OpenSearch exited during start-up:\n${fs.readFileSync(logFile, 'utf8').slice(-3000)}`);
    try {
      const r = await request(`${url}/`);
      if (r.status === 200) break;
    } catch {}
    if (Date.now() > deadline) {
      child.kill('SIGKILL');
      throw new Error('OpenSearch did not answer GET / within 120 s');
    }
    await sleep(50);
  }
  const startupMs = Number(process.hrtime.bigint() - t0) / 1e6;
  return {
    name: 'opensearch',
    pid: child.pid,
    url,
    port,
    dataDir: path.join(dataDir, 'data'),
    heap: HEAP,
    startupMs,
    child,
    async stop() {
      if (child.exitCode === null && child.signalCode === null) {
        const t = setTimeout(() => child.kill('SIGKILL'), 20000);
        await new Promise((r) => {
          child.once('exit', r);
          child.kill('SIGTERM');
        });
        clearTimeout(t);
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

module.exports = { startOpenSearch, OS_HEAP: HEAP };
