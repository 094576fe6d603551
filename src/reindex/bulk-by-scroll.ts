// The loop under reindex and delete-by-query (OpenSearch's bulk-by-scroll actions): scroll
// through the source's matching documents in batches, turn each batch into one bulk request,
// count what the bulk did, and stop at `max_docs`, at the first failure (unless conflicts
// proceed), or when the task is cancelled. Everything goes through the engine's own search,
// scroll and bulk, so documents are written exactly as `_bulk` writes them. Hits are read with
// the number-preserving JSON reader, so a long in `_source` is copied digit for digit.
import type { Engine, EngineParams } from '../engine';
import { parseJson, stringifyCompact, type JsonNode, type JsonObject } from '../http/raw-json';
import type { Task } from '../tasks/task-manager';

export interface Hit {
  readonly index: string;
  readonly id: string;
  readonly source: JsonNode | undefined;
  readonly routing: string | undefined;
  readonly seqNo: string | undefined;
  readonly primaryTerm: string | undefined;
}

export interface BulkByScrollJob {
  /** The indices searched (as the request wrote them). */
  readonly index: string;
  /** The search body of the scroll (query, `_source`), without size or sort. */
  readonly search: Record<string, unknown>;
  /** URL parameters of the search (`q`, `df`, `routing`, …). */
  readonly searchParams?: Readonly<Record<string, string>>;
  readonly batchSize: number;
  readonly maxDocs: number | undefined;
  /** `conflicts: proceed`: version conflicts are counted, not failures. */
  readonly proceedOnConflicts: boolean;
  /** The bulk lines (action and document) for one hit. */
  readonly linesFor: (hit: Hit) => string;
  /** Counts the REST answer leaves out (delete-by-query: `updated` and `created`; update-by-query: `created`). */
  readonly omit: ReadonlyArray<'updated' | 'created'>;
  /** Indices to refresh at the end (`refresh=true`), or none. */
  readonly refresh: string | undefined;
  /** Documents per second at most (-1: as fast as it goes), by waiting between batches. */
  readonly requestsPerSecond: number;
}

export interface BulkByScrollStatus {
  total: number;
  updated: number;
  created: number;
  deleted: number;
  batches: number;
  version_conflicts: number;
  noops: number;
}

export interface BulkByScrollOutcome {
  /** HTTP status: the highest failure's, or 200. */
  readonly status: number;
  readonly response: Record<string, unknown>;
}

const SCROLL_KEEP_ALIVE = '5m';

function field(o: JsonObject, key: string): JsonNode | undefined {
  const i = o.keys.indexOf(key);
  return i === -1 ? undefined : o.values[i];
}

function text(n: JsonNode | undefined): string | undefined {
  if (n === undefined || n.kind !== 'scalar' || n.raw === 'null') return undefined;
  return n.raw.startsWith('"') ? (JSON.parse(n.raw) as string) : n.raw;
}

function readPage(body: Buffer): { scrollId: string | undefined; hits: Hit[]; total: number } {
  const root = parseJson(body);
  if (root.kind !== 'object') return { scrollId: undefined, hits: [], total: 0 };
  const hitsObj = field(root, 'hits');
  const list = hitsObj?.kind === 'object' ? field(hitsObj, 'hits') : undefined;
  const totalObj = hitsObj?.kind === 'object' ? field(hitsObj, 'total') : undefined;
  const total = Number(text(totalObj?.kind === 'object' ? field(totalObj, 'value') : totalObj) ?? 0);
  const hits: Hit[] = [];
  if (list?.kind === 'array') {
    for (const h of list.items) {
      if (h.kind !== 'object') continue;
      hits.push({
        index: text(field(h, '_index')) ?? '',
        id: text(field(h, '_id')) ?? '',
        source: field(h, '_source'),
        routing: text(field(h, '_routing')),
        seqNo: text(field(h, '_seq_no')),
        primaryTerm: text(field(h, '_primary_term')),
      });
    }
  }
  return { scrollId: text(field(root, '_scroll_id')), hits, total };
}

/** A document's JSON for a bulk line, as the source index holds it. */
export function sourceText(hit: Hit): string {
  return hit.source === undefined ? '{}' : stringifyCompact(hit.source);
}

interface BulkItem {
  status: number;
  result?: string;
  error?: Record<string, unknown>;
  _index?: string;
  _id?: string;
}

export async function runBulkByScroll(engine: Engine, task: Task, job: BulkByScrollJob): Promise<BulkByScrollOutcome> {
  const startedAt = Date.now();
  const status: BulkByScrollStatus = { total: 0, updated: 0, created: 0, deleted: 0, batches: 0, version_conflicts: 0, noops: 0 };
  let throttledMillis = 0;
  // Until the first search answers there is no worker, and OpenSearch reports its rate as 0.
  let started = false;
  task.status = () => ({
    ...status,
    retries: { bulk: 0, search: 0 },
    throttled_millis: throttledMillis,
    requests_per_second: started ? job.requestsPerSecond : 0,
    throttled_until_millis: 0,
  });
  const failures: Array<Record<string, unknown>> = [];
  let worst = 200;
  const size = job.maxDocs === undefined ? job.batchSize : Math.min(job.batchSize, job.maxDocs);
  const body = Buffer.from(JSON.stringify({ ...job.search, size, sort: ['_doc'], seq_no_primary_term: true, track_total_hits: true }));
  let page = readPage((await engine.execute('indices:data/read/search', { ...job.searchParams, index: job.index, scroll: SCROLL_KEEP_ALIVE }, body)).body);
  started = true;
  status.total = job.maxDocs === undefined ? page.total : Math.min(page.total, job.maxDocs);
  let scrollId = page.scrollId;
  const searchedIds = new Set<string>();
  if (scrollId !== undefined) searchedIds.add(scrollId);
  let processed = 0;
  try {
    while (page.hits.length > 0 && !task.cancelled) {
      const batchStarted = Date.now();
      let hits = page.hits;
      if (job.maxDocs !== undefined && processed + hits.length > job.maxDocs) hits = hits.slice(0, job.maxDocs - processed);
      processed += hits.length;
      const bulk = hits.map(job.linesFor).join('');
      const res = await engine.execute('indices:data/write/bulk', {}, Buffer.from(bulk));
      status.batches++;
      const items = (JSON.parse(res.body.toString('utf8')) as { items?: Array<Record<string, BulkItem>> }).items ?? [];
      for (const wrapped of items) {
        const item = Object.values(wrapped)[0];
        if (item === undefined) continue;
        if (item.error === undefined) {
          if (item.result === 'created') status.created++;
          else if (item.result === 'updated') status.updated++;
          else if (item.result === 'deleted') status.deleted++;
          else if (item.result === 'noop') status.noops++;
          continue;
        }
        if (item.status === 409) {
          status.version_conflicts++;
          if (job.proceedOnConflicts) continue;
        }
        failures.push({ index: item._index, id: item._id, cause: item.error, status: item.status });
        worst = Math.max(worst, item.status);
      }
      if (failures.length > 0 || (job.maxDocs !== undefined && processed >= job.maxDocs) || scrollId === undefined) break;
      if (job.requestsPerSecond > 0) {
        const wait = batchStarted + (hits.length * 1000) / job.requestsPerSecond - Date.now();
        if (wait > 0) {
          throttledMillis += Math.round(wait);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
      page = readPage((await engine.execute('indices:data/read/scroll', { scroll: SCROLL_KEEP_ALIVE, scroll_id: scrollId })).body);
      if (page.scrollId !== undefined) scrollId = page.scrollId;
    }
  } finally {
    if (scrollId !== undefined) await engine.execute('indices:data/read/scroll/clear', { scroll_id: scrollId }).catch(() => undefined);
  }
  if (job.refresh !== undefined) await engine.execute('indices:admin/refresh', { index: job.refresh } as EngineParams);
  const response: Record<string, unknown> = { took: Date.now() - startedAt, timed_out: false, ...task.status() };
  // The by-query REST answers leave some counts out (their task status keeps them).
  for (const k of job.omit) delete response[k];
  if (task.cancelled) response.canceled = task.cancelReason;
  response.failures = failures;
  return { status: worst, response };
}
