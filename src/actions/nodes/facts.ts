// Process and host facts for `GET /_nodes` and `GET /_nodes/stats`, in OpenSearch's shapes.
// Quarry runs on V8, not a JVM: the `jvm` sections describe the Node.js runtime (V8 heap spaces
// as memory pools, scavenges as the young collector and mark-compacts as the old one), so tools
// that read JVM figures (OpenSearch Benchmark's GC summary) get the runtime's real numbers.
import os from 'node:os';
import v8 from 'node:v8';
import { PerformanceObserver, constants } from 'node:perf_hooks';
import type { NodeContext } from '../../node-context';

const gc = { young: { count: 0, ms: 0 }, old: { count: 0, ms: 0 } };
let observing = false;

/** Counts garbage collections from the first `_nodes` request on (cheap: one entry per GC). */
export function observeGc(): void {
  if (observing) return;
  observing = true;
  const obs = new PerformanceObserver((list) => {
    for (const e of list.getEntries()) {
      const kind = (e as unknown as { detail?: { kind?: number } }).detail?.kind;
      const g = kind === constants.NODE_PERFORMANCE_GC_MINOR ? gc.young : gc.old;
      g.count++;
      g.ms += e.duration;
    }
  });
  obs.observe({ entryTypes: ['gc'] });
}

export const VERSION = '2.19.1';
const startedAt = Date.now() - Math.round(process.uptime() * 1000);

export function nodeHeader(node: NodeContext): Record<string, unknown> {
  const host = node.config.network.host;
  return {
    name: node.config.node.name,
    transport_address: `${host}:9300`,
    host,
    ip: host,
    roles: ['cluster_manager', 'data', 'ingest', 'remote_cluster_client'],
    attributes: {},
  };
}

function pools(): Record<string, Record<string, number>> {
  const out: Record<string, Record<string, number>> = {};
  const name = (s: string): string => (s === 'new_space' ? 'young' : s === 'old_space' ? 'old' : s.replace(/_space$/, ''));
  for (const s of v8.getHeapSpaceStatistics()) {
    out[name(s.space_name)] = {
      used_in_bytes: s.space_used_size,
      max_in_bytes: s.space_size,
      peak_used_in_bytes: s.space_used_size,
      peak_max_in_bytes: s.space_size,
    };
  }
  return out;
}

export function infoSections(node: NodeContext): Record<string, unknown> {
  const heap = v8.getHeapStatistics();
  return {
    settings: { cluster: { name: node.config.cluster.name }, node: { name: node.config.node.name }, path: { data: [node.config.path.data] } },
    os: {
      refresh_interval_in_millis: 1000,
      name: os.type(),
      pretty_name: os.type(),
      arch: os.arch(),
      version: os.release(),
      available_processors: os.cpus().length,
      allocated_processors: os.availableParallelism?.() ?? os.cpus().length,
    },
    process: { refresh_interval_in_millis: 1000, id: process.pid, mlockall: false },
    jvm: {
      pid: process.pid,
      version: process.versions.v8,
      vm_name: 'V8 (Node.js)',
      vm_version: process.version,
      vm_vendor: 'Node.js',
      start_time_in_millis: startedAt,
      mem: { heap_init_in_bytes: 0, heap_max_in_bytes: heap.heap_size_limit, non_heap_init_in_bytes: 0, non_heap_max_in_bytes: 0, direct_max_in_bytes: 0 },
      gc_collectors: ['young', 'old'],
      memory_pools: Object.keys(pools()),
      using_compressed_ordinary_object_pointers: 'false',
      input_arguments: process.execArgv,
    },
    thread_pool: {},
    transport: { bound_address: [`${node.config.network.host}:9300`], publish_address: `${node.config.network.host}:9300`, profiles: {} },
    http: { bound_address: [`${node.config.network.host}:${node.config.http.port}`], publish_address: `${node.config.network.host}:${node.config.http.port}`, max_content_length_in_bytes: 104857600 },
    plugins: [],
    modules: [],
    ingest: { processors: [] },
    aggregations: {},
  };
}

export function statsSections(indices: Record<string, unknown>): Record<string, unknown> {
  const heap = v8.getHeapStatistics();
  const mem = process.memoryUsage();
  const cpu = process.cpuUsage();
  const now = Date.now();
  const [l1, l5, l15] = os.loadavg();
  return {
    timestamp: now,
    indices,
    os: {
      timestamp: now,
      cpu: { percent: 0, load_average: { '1m': l1, '5m': l5, '15m': l15 } },
      mem: { total_in_bytes: os.totalmem(), free_in_bytes: os.freemem(), used_in_bytes: os.totalmem() - os.freemem(), free_percent: Math.round((os.freemem() / os.totalmem()) * 100), used_percent: Math.round((1 - os.freemem() / os.totalmem()) * 100) },
    },
    process: {
      timestamp: now,
      open_file_descriptors: -1,
      max_file_descriptors: -1,
      cpu: { percent: 0, total_in_millis: Math.round((cpu.user + cpu.system) / 1000) },
      mem: { total_virtual_in_bytes: mem.rss },
    },
    jvm: {
      timestamp: now,
      uptime_in_millis: Math.round(process.uptime() * 1000),
      mem: {
        heap_used_in_bytes: heap.used_heap_size,
        heap_used_percent: Math.round((heap.used_heap_size / heap.heap_size_limit) * 100),
        heap_committed_in_bytes: heap.total_heap_size,
        heap_max_in_bytes: heap.heap_size_limit,
        non_heap_used_in_bytes: mem.external + mem.arrayBuffers,
        non_heap_committed_in_bytes: mem.external + mem.arrayBuffers,
        pools: pools(),
      },
      threads: { count: 0, peak_count: 0 },
      gc: {
        collectors: {
          young: { collection_count: gc.young.count, collection_time_in_millis: Math.round(gc.young.ms) },
          old: { collection_count: gc.old.count, collection_time_in_millis: Math.round(gc.old.ms) },
        },
      },
      buffer_pools: {},
      classes: { current_loaded_count: 0, total_loaded_count: 0, total_unloaded_count: 0 },
    },
    thread_pool: {},
    fs: { timestamp: now, total: {}, data: [] },
    transport: { server_open: 0, total_outbound_connections: 0, rx_count: 0, rx_size_in_bytes: 0, tx_count: 0, tx_size_in_bytes: 0 },
    http: { current_open: 0, total_opened: 0 },
    breakers: {},
    script: { compilations: 0, cache_evictions: 0, compilation_limit_triggered: 0 },
    discovery: {},
    ingest: { total: { count: 0, time_in_millis: 0, current: 0, failed: 0 }, pipelines: {} },
    adaptive_selection: {},
  };
}

/** Keeps only the requested metrics (comma list; `_all` or none = every one). */
export function pick(sections: Record<string, unknown>, metric: string | undefined, always: readonly string[] = []): Record<string, unknown> {
  if (!metric || metric === '_all') return sections;
  const want = new Set(metric.split(','));
  return Object.fromEntries(Object.entries(sections).filter(([k]) => want.has(k) || always.includes(k)));
}

/** `_local`, `_all`, `*`, the node's id or name select this node; anything else selects none. */
export function selectsThisNode(node: NodeContext, nodeId: string | undefined): boolean {
  if (!nodeId) return true;
  return nodeId.split(',').some((n) => ['_all', '_local', '_master', '_cluster_manager', '*', node.engine.nodeId, node.config.node.name].includes(n));
}
