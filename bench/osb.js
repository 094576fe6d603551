'use strict';
// `npm run bench:osb`: the real OpenSearch Benchmark (PyPI `opensearch-benchmark`, in its own
// virtualenv bench/.venv) replays bench/workloads against a fresh Quarry and a fresh OpenSearch,
// one after the other:
//   opensearch-benchmark run --pipeline=benchmark-only --offline --workload-path=<dir>
//       --target-hosts=127.0.0.1:<port>
// Each workload is assembled in bench/.cache/osb/workloads/<name>/ (workload.json and index.json
// copied, the documents files from bench/.cache/corpus linked next to them, as OSB wants), and
// OSB runs with HOME=bench/.cache/osb/home so its config and logs stay in the cache.
//
// Flags: --test-mode (OSB's: 1,000 docs, 1 iteration per task) --workloads a,b
//        --targets quarry,opensearch --exclude-tasks wl:task,… (OSB's --exclude-tasks, per workload)
//        --trace (put a recording proxy in front of each target and
//        list every endpoint OSB called with its status: what a server must answer)
// Writes bench/results/<timestamp>-osb/: OSB's own Markdown report per target and workload,
// the console logs, endpoints.md with --trace, and summary.md.
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { spawn, spawnSync } = require('node:child_process');
const { ensureDocuments } = require('./lib/osbdocs');
const { startQuarry } = require('./lib/procs');
const { startOpenSearch, OS_HEAP } = require('./lib/opensearch');
const { WORKLOADS } = require('./workload');

const BENCH = __dirname;
const VENV = path.join(BENCH, '.venv');
const OSB = path.join(VENV, 'bin', 'opensearch-benchmark');
const CACHE = path.join(BENCH, '.cache', 'osb');

function parseArgs(argv) {
  const o = { workloads: WORKLOADS.join(','), targets: 'quarry,opensearch', corpusDir: path.resolve(BENCH, '..', '..', 'shared', 'corpus') };
  for (let i = 0; i < argv.length; i++) {
    const k = argv[i].replace(/^--/, '');
    if (k === 'test-mode' || k === 'trace') o[k] = true;
    else if (k === 'corpus-dir') o.corpusDir = path.resolve(argv[++i]);
    else o[k] = argv[++i];
  }
  return o;
}

const log = (m) => process.stderr.write(`[osb] ${m}\n`);

function ensureVenv() {
  if (fs.existsSync(OSB)) return;
  log('creating bench/.venv and installing opensearch-benchmark from PyPI …');
  const py = process.env.PYTHON || 'python3';
  let r = spawnSync(py, ['-m', 'venv', VENV], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('python3 -m venv failed');
  r = spawnSync(path.join(VENV, 'bin', 'pip'), ['install', '-q', 'opensearch-benchmark'], { stdio: 'inherit' });
  if (r.status !== 0) throw new Error('pip install opensearch-benchmark failed');
}

/** bench/.cache/osb/workloads/<name>/ with workload.json, index.json and the documents files. */
function assemble(name, corpusDir) {
  const src = path.join(BENCH, 'workloads', name);
  const wl = JSON.parse(fs.readFileSync(path.join(src, 'workload.json'), 'utf8'));
  const dir = path.join(CACHE, 'workloads', name);
  fs.mkdirSync(dir, { recursive: true });
  for (const f of fs.readdirSync(src)) fs.copyFileSync(path.join(src, f), path.join(dir, f));
  for (const c of wl.corpora) {
    for (const d of c.documents) {
      const docs = ensureDocuments(corpusDir, c.name, wl.indices[0].name, d['source-file']);
      if (docs.docs !== d['document-count'] || docs.bytes !== d['uncompressed-bytes']) {
        throw new Error(`${name}: ${d['source-file']} has ${docs.docs} docs / ${docs.bytes} bytes, workload.json says ${d['document-count']} / ${d['uncompressed-bytes']}`);
      }
      const link = path.join(dir, d['source-file']);
      fs.rmSync(link, { force: true });
      fs.symlinkSync(docs.file, link);
      // OSB's --test-mode reads <name>-1k.json: the first 1,000 docs.
      const k1 = link.replace(/\.json$/, '-1k.json');
      const buf = fs.readFileSync(docs.file);
      let end = 0;
      for (let i = 0; i < 2000 && end < buf.length; i++) end = buf.indexOf(10, end) + 1 || buf.length;
      fs.writeFileSync(k1, buf.subarray(0, end));
    }
  }
  return dir;
}

/** A recording reverse proxy: counts `METHOD /path → status` (index names generalised). */
function startProxy(target) {
  const seen = new Map();
  const server = http.createServer((req, res) => {
    const chunks = [];
    req.on('data', (c) => chunks.push(c));
    req.on('end', () => {
      const body = Buffer.concat(chunks);
      const up = http.request(`${target}${req.url}`, { method: req.method, headers: req.headers }, (r) => {
        const key = `${req.method} ${req.url.split('?')[0].replace(/^\/(debian-packages|npm-packages|flights|spam-assassin)(?=\/|$)/, '/{index}')}${req.url.includes('?') ? '?' + [...new URLSearchParams(req.url.split('?')[1]).keys()].sort().join('&') : ''} → ${r.statusCode}`;
        seen.set(key, (seen.get(key) ?? 0) + 1);
        res.writeHead(r.statusCode, r.headers);
        r.pipe(res);
      });
      up.on('error', (e) => {
        res.writeHead(502);
        res.end(String(e));
      });
      up.end(body);
    });
  });
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve({ port: server.address().port, seen, close: () => server.close() })));
}

function runOsb(args, env, logFile) {
  return new Promise((resolve) => {
    const child = spawn(OSB, args, { env, stdio: ['ignore', 'pipe', 'pipe'] });
    const kill = () => child.kill('SIGTERM');
    process.once('exit', kill);
    child.on('exit', () => process.off('exit', kill));
    const out = fs.createWriteStream(logFile);
    let text = '';
    const t0 = Date.now();
    for (const s of [child.stdout, child.stderr]) {
      s.on('data', (d) => {
        out.write(d);
        text += d;
      });
    }
    child.on('exit', (code) => {
      out.end();
      resolve({ code, text, seconds: (Date.now() - t0) / 1000 });
    });
  });
}

/** OSB's Markdown report → { task: { metric: value } } for the metrics compared side by side. */
function parseReport(file) {
  const out = {};
  if (!fs.existsSync(file)) return out;
  for (const line of fs.readFileSync(file, 'utf8').split('\n')) {
    const m = /^\|\s*(.+?)\s*\|\s*(.+?)\s*\|\s*([-\d.e+]+)\s*\|\s*(.*?)\s*\|$/.exec(line);
    if (!m) continue;
    const [, metric, task, value] = m;
    if (!['Mean Throughput', '50th percentile service time', '90th percentile service time', '99th percentile service time', 'error rate'].includes(metric)) continue;
    (out[task] ??= {})[metric] = Number(value);
  }
  return out;
}

/** Quarry against OpenSearch as OSB measured them, per workload and task. */
function comparison(outDir, workloads) {
  const rows = [];
  for (const w of workloads) {
    const q = parseReport(path.join(outDir, `quarry-${w}.md`));
    const os = parseReport(path.join(outDir, `opensearch-${w}.md`));
    for (const task of [...new Set([...Object.keys(os), ...Object.keys(q)])]) {
      const a = q[task] ?? {};
      const b = os[task] ?? {};
      const fmt = (v) => (Number.isFinite(v) ? (v >= 100 ? v.toFixed(0) : v.toFixed(2)) : 'n/a');
      const r = (x, y) => (Number.isFinite(x) && Number.isFinite(y) && y > 0 ? `${(x / y).toFixed(2)}×` : 'n/a');
      const failed = a['error rate'] > 0 ? ` (error rate ${a['error rate']} %)` : '';
      rows.push(`| ${w}/${task} | ${fmt(a['50th percentile service time'])}${failed} | ${fmt(b['50th percentile service time'])} | ${r(a['50th percentile service time'], b['50th percentile service time'])} | ${fmt(a['Mean Throughput'])} | ${fmt(b['Mean Throughput'])} | ${r(a['Mean Throughput'], b['Mean Throughput'])} |`);
    }
  }
  return [
    '## Quarry ÷ OpenSearch as OSB measured them',
    '',
    'Service time through OSB\'s Python client (1 client per task), so every figure carries its overhead; throughput is docs/s for index-append and ops/s for the queries.',
    '',
    '| workload/task | Quarry p50 ms | OpenSearch p50 ms | ratio | Quarry mean throughput | OpenSearch mean throughput | ratio |',
    '|---|---:|---:|---:|---:|---:|---:|',
    ...rows,
    '',
  ].join('\n');
}

async function main() {
  const argv = process.argv.slice(2);
  if (argv[0] === '--summarize') {
    const dir = path.resolve(argv[1]);
    console.log(comparison(dir, WORKLOADS));
    return;
  }
  const o = parseArgs(argv);
  ensureVenv();
  const version = spawnSync(OSB, ['--version'], { encoding: 'utf8' }).stdout.trim();
  log(version);
  const started = new Date();
  const outDir = path.join(BENCH, 'results', `${started.toISOString().replace(/[:.]/g, '-')}-osb`);
  fs.mkdirSync(outDir, { recursive: true });
  const home = path.join(CACHE, 'home');
  fs.mkdirSync(home, { recursive: true });
  const env = { ...process.env, HOME: home };
  const workloads = o.workloads.split(',').map((w) => ({ name: w, dir: assemble(w, o.corpusDir) }));
  const summary = [];
  const endpoints = {};
  // Stop the servers (and OSB) if this process is interrupted.
  let current = null;
  for (const sig of ['SIGINT', 'SIGTERM']) {
    process.once(sig, async () => {
      if (current) await current.stop();
      process.exit(130);
    });
  }
  for (const target of o.targets.split(',')) {
    // OSB refuses a cluster whose version is below 1.0.0: Quarry answers `GET /` with
    // OpenSearch's version when told to (the setting exists for tools that gate on it).
    const srv = target === 'opensearch' ? await startOpenSearch() : await startQuarry({ settings: { 'compatibility.override_main_response_version': 'true' } });
    current = srv;
    log(`${target}: up on ${srv.url} in ${srv.startupMs.toFixed(0)} ms`);
    const proxy = o.trace ? await startProxy(srv.url) : null;
    const port = proxy ? proxy.port : srv.port;
    try {
      for (const w of workloads) {
        if (srv.child.exitCode !== null || srv.child.signalCode !== null) {
          summary.push({ target, workload: w.name, exit: null, seconds: 0, ok: false, errors: [`${target} died (${srv.child.signalCode ?? srv.child.exitCode})`], error_rates: [] });
          log(`${target}: died (${srv.child.signalCode ?? srv.child.exitCode}); skipping ${w.name}`);
          continue;
        }
        const results = path.join(outDir, `${target}-${w.name}.md`);
        const args = [
          'run',
          '--pipeline=benchmark-only',
          '--offline',
          `--workload-path=${w.dir}`,
          `--target-hosts=127.0.0.1:${port}`,
          '--kill-running-processes',
          '--on-error=continue',
          '--results-format=markdown',
          `--results-file=${results}`,
          `--user-tag=target:${target}`,
          '--client-options=timeout:240',
        ];
        if (o['test-mode']) args.push('--test-mode');
        const excluded = (o['exclude-tasks'] ?? '').split(',').filter((x) => x.startsWith(`${w.name}:`)).map((x) => x.slice(w.name.length + 1));
        if (excluded.length) args.push(`--exclude-tasks=${excluded.join(',')}`);
        log(`${target}: ${w.name} …`);
        const r = await runOsb(args, env, path.join(outDir, `${target}-${w.name}.log`));
        const errors = [...r.text.matchAll(/\[ERROR\][^\n]*/g)].map((m) => m[0]);
        const errorRates = [...(fs.existsSync(results) ? fs.readFileSync(results, 'utf8') : '').matchAll(/\|\s*error rate\s*\|\s*([^|]+?)\s*\|\s*([\d.]+)\s*\|\s*%\s*\|/gi)]
          .filter((m) => Number(m[2]) > 0)
          .map((m) => `${m[1]} ${m[2]} %`);
        const ok = r.code === 0 && /SUCCESS/.test(r.text) && errorRates.length === 0;
        summary.push({ target, workload: w.name, exit: r.code, seconds: r.seconds, ok, errors: errors.slice(0, 5), error_rates: errorRates });
        log(`${target}: ${w.name} exit ${r.code} in ${r.seconds.toFixed(0)} s${ok ? ' (clean)' : ''}${errorRates.length ? `; errors: ${errorRates.join(', ')}` : ''}${errors.length ? `; ${errors[0]}` : ''}`);
      }
    } finally {
      if (proxy) {
        endpoints[target] = Object.fromEntries([...proxy.seen.entries()].sort());
        proxy.close();
      }
      await srv.stop();
    }
  }
  const md = [
    `# OpenSearch Benchmark ${started.toISOString()}`,
    '',
    `${version}; \`run --pipeline=benchmark-only --offline --workload-path=…\`${o['test-mode'] ? ' --test-mode' : ''}${o['exclude-tasks'] ? `; excluded tasks: ${o['exclude-tasks']}` : ''}; OpenSearch 2.19.1 heap ${OS_HEAP}. Reports: \`<target>-<workload>.md\`, console: \`<target>-<workload>.log\`, OSB's own log: bench/.cache/osb/home/.benchmark/logs/benchmark.log.`,
    '',
    '| target | workload | exit | seconds | clean | errors |',
    '|---|---|---:|---:|---|---|',
    ...summary.map((s) => `| ${s.target} | ${s.workload} | ${s.exit} | ${s.seconds.toFixed(0)} | ${s.ok ? 'yes' : 'no'} | ${[...s.error_rates, ...s.errors].join('; ').replace(/\|/g, '\\|').slice(0, 400)} |`),
    '',
  ];
  if (o.targets.includes('quarry') && o.targets.includes('opensearch')) md.push(comparison(outDir, workloads.map((w) => w.name)));
  if (o.trace) {
    const keys = [...new Set(Object.values(endpoints).flatMap((e) => Object.keys(e).map((k) => k.replace(/ → \d+$/, ''))))].sort();
    const targets = Object.keys(endpoints);
    const statusOf = (t, k) => Object.entries(endpoints[t]).filter(([x]) => x.replace(/ → \d+$/, '') === k).map(([x, n]) => `${x.match(/→ (\d+)$/)[1]} ×${n}`).join(', ');
    const ep = ['# Endpoints OpenSearch Benchmark called', '', `| request | ${targets.join(' | ')} |`, `|---|${targets.map(() => '---').join('|')}|`, ...keys.map((k) => `| \`${k}\` | ${targets.map((t) => statusOf(t, k) || '—').join(' | ')} |`), ''];
    fs.writeFileSync(path.join(outDir, 'endpoints.md'), ep.join('\n'));
    md.push('Endpoints: [endpoints.md](endpoints.md)', '');
  }
  fs.writeFileSync(path.join(outDir, 'summary.md'), md.join('\n'));
  fs.writeFileSync(path.join(outDir, 'results.json'), JSON.stringify({ started: started.toISOString(), version, os_heap: OS_HEAP, options: o, summary, endpoints }, null, 2) + '\n');
  console.log(md.join('\n'));
  console.log(`results: ${path.relative(process.cwd(), outDir)}/`);
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
