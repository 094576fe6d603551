// What `_cat/nodes`, `_cat/allocation`, `_cat/cluster_manager`, `_cat/nodeattrs`, `_cat/plugins`
// and `_cat/thread_pool` need from the process (addresses, heap, memory, file descriptors, CPU,
// load, disk), as the engine's `cat:*` actions take them: one object of facts keyed by column
// name, sizes as `{bytes}` and durations as `{millis}` so the engine prints them in the units
// asked for. Quarry runs on V8: `heap` is V8's heap and `jdk` the Node.js version, as in `_nodes`.
import fs from 'node:fs';
import os from 'node:os';
import v8 from 'node:v8';
import type { NodeContext } from '../../node-context';
import { VERSION } from '../nodes/facts';

const TRANSPORT_PORT = 9300;

/** The CPU times of the previous ask, so `cpu` is the host's use since then (as OpenSearch's
 * OS probe reports it between refreshes). */
let lastCpu: { busy: number; total: number } | undefined;

function cpuPercent(): number {
  let busy = 0;
  let total = 0;
  for (const c of os.cpus()) {
    const t = c.times;
    const all = t.user + t.nice + t.sys + t.idle + t.irq;
    total += all;
    busy += all - t.idle;
  }
  const prev = lastCpu;
  lastCpu = { busy, total };
  const dt = prev === undefined ? total : total - prev.total;
  const db = prev === undefined ? busy : busy - prev.busy;
  return dt > 0 ? Math.round((db / dt) * 100) : 0;
}

function fileDescriptors(): { current: number; max: number } | undefined {
  try {
    const current = fs.readdirSync('/proc/self/fd').length;
    const limits = fs.readFileSync('/proc/self/limits', 'utf8');
    const m = /^Max open files\s+(\d+)/m.exec(limits);
    return { current, max: m ? Number(m[1]) : -1 };
  } catch {
    return undefined;
  }
}

function disk(path: string): { total: number; avail: number } | undefined {
  try {
    const s = fs.statfsSync(path);
    return { total: s.blocks * s.bsize, avail: s.bavail * s.bsize };
  } catch {
    return undefined;
  }
}

const percent = (part: number, whole: number): number => (whole > 0 ? Math.round((part / whole) * 100) : 0);

export function nodeFacts(node: NodeContext): Record<string, unknown> {
  const host = node.config.network.host;
  const heap = v8.getHeapStatistics();
  const ramMax = os.totalmem();
  const ramUsed = ramMax - os.freemem();
  const fd = fileDescriptors();
  const d = disk(node.config.path.data);
  const [l1, l5, l15] = os.loadavg().map((l) => l.toFixed(2));
  return {
    name: node.config.node.name,
    host,
    ip: host,
    port: TRANSPORT_PORT,
    http_address: `${host}:${node.config.http.port}`,
    pid: process.pid,
    version: VERSION,
    type: 'tar',
    build: 'unknown',
    jdk: process.version,
    'heap.current': { bytes: heap.used_heap_size },
    'heap.percent': percent(heap.used_heap_size, heap.heap_size_limit),
    'heap.max': { bytes: heap.heap_size_limit },
    'ram.current': { bytes: ramUsed },
    'ram.percent': percent(ramUsed, ramMax),
    'ram.max': { bytes: ramMax },
    'file_desc.current': fd?.current ?? -1,
    'file_desc.percent': fd && fd.max > 0 ? percent(fd.current, fd.max) : -1,
    'file_desc.max': fd?.max ?? -1,
    cpu: cpuPercent(),
    load_1m: l1,
    load_5m: l5,
    load_15m: l15,
    uptime: { millis: Math.round(process.uptime() * 1000) },
    'node.role': 'dimr',
    'node.roles': 'cluster_manager,data,ingest,remote_cluster_client',
    cluster_manager: '*',
    'disk.total': d ? { bytes: d.total } : null,
    'disk.used': d ? { bytes: d.total - d.avail } : null,
    'disk.avail': d ? { bytes: d.avail } : null,
    'disk.used_percent': d && d.total > 0 ? (((d.total - d.avail) / d.total) * 100).toFixed(2) : null,
    'disk.percent': d ? percent(d.total - d.avail, d.total) : null,
    'script.compilations': 0,
    'script.cache_evictions': 0,
    'script.compilation_limit_triggered': 0,
  };
}

/** The body of a `cat:*` engine action about the node. */
export function factsBody(node: NodeContext, extra: Record<string, unknown> = {}): Buffer {
  return Buffer.from(JSON.stringify({ node: nodeFacts(node), attributes: { shard_indexing_pressure_enabled: 'true' }, plugins: [], ...extra }));
}
