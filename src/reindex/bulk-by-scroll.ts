// The loop under reindex and delete-by-query (OpenSearch's bulk-by-scroll actions): scroll
// through the source's matching documents in batches, write each batch, count what the writes
// did, and stop at `max_docs`, at the first failure (unless conflicts proceed), or when the task
// is cancelled. Each batch is one engine call (`indices:data/write/bulk_by_scroll`): the engine
// turns the scroll page it holds into `_bulk`'s own writes, copying each stored `_source` as its
// bytes are, and reads the next page while the batch is written. The call answers counts and
// failures only, so no page or bulk body crosses into JS, and the loop here decides, between
// batches, whether another is written: cancellation, `max_docs` and failures work as before.
import type { Engine, EngineParams } from '../engine';
import type { Task } from '../tasks/task-manager';

/** How a batch's hits are written. */
export interface BatchWrites {
  /** The bulk operation each hit becomes. */
  readonly op: 'index' | 'create' | 'delete';
  /** The index written; each hit's own without one. */
  readonly dest?: string;
  /** A reindex's `dest.routing`: `keep` (the hit's, the default), `discard`, or `=<value>`. */
  readonly routing?: string;
  /** Written only if still as the search saw it (`if_seq_no` and `if_primary_term`). */
  readonly guard: boolean;
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
  readonly writes: BatchWrites;
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
const BATCH = 'indices:data/write/bulk_by_scroll';

/** The opening call's answer: the scroll, its total, and the first page's size. */
interface Opened {
  _scroll_id: string;
  total: number;
  pending: number;
}

/** A failed write, as its bulk item reported it. */
interface BatchFailure {
  index: string;
  id: string | null;
  cause: Record<string, unknown>;
  status: number;
}

/** A batch call's answer: what its writes did, and the size of the page read ahead. */
interface Written {
  created: number;
  updated: number;
  deleted: number;
  noops: number;
  failures: BatchFailure[];
  pending: number;
}

function writeParams(scrollId: string, w: BatchWrites): EngineParams {
  const p: EngineParams = { scroll_id: scrollId, scroll: SCROLL_KEEP_ALIVE, op: w.op, guard: String(w.guard) };
  if (w.dest !== undefined) p.dest = w.dest;
  if (w.routing !== undefined) p.dest_routing = w.routing;
  return p;
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
  const opened = JSON.parse((await engine.execute(BATCH, { ...job.searchParams, index: job.index, scroll: SCROLL_KEEP_ALIVE }, body)).body.toString('utf8')) as Opened;
  started = true;
  status.total = job.maxDocs === undefined ? opened.total : Math.min(opened.total, job.maxDocs);
  const scrollId = opened._scroll_id;
  const params = writeParams(scrollId, job.writes);
  let pending = opened.pending;
  let processed = 0;
  try {
    while (pending > 0 && !task.cancelled) {
      const batchStarted = Date.now();
      const limit = job.maxDocs === undefined ? pending : Math.min(pending, job.maxDocs - processed);
      processed += limit;
      const last = job.maxDocs !== undefined && processed >= job.maxDocs;
      // The last batch reads no page ahead: nothing would write it.
      const res = await engine.execute(BATCH, { ...params, limit: String(limit), read_ahead: String(!last) });
      status.batches++;
      const written = JSON.parse(res.body.toString('utf8')) as Written;
      status.created += written.created;
      status.updated += written.updated;
      status.deleted += written.deleted;
      status.noops += written.noops;
      for (const f of written.failures) {
        if (f.status === 409) {
          status.version_conflicts++;
          if (job.proceedOnConflicts) continue;
        }
        failures.push({ index: f.index, id: f.id, cause: f.cause, status: f.status });
        worst = Math.max(worst, f.status);
      }
      if (failures.length > 0 || last) break;
      if (job.requestsPerSecond > 0) {
        const wait = batchStarted + (limit * 1000) / job.requestsPerSecond - Date.now();
        if (wait > 0) {
          throttledMillis += Math.round(wait);
          await new Promise((resolve) => setTimeout(resolve, wait));
        }
      }
      pending = written.pending;
    }
  } finally {
    await engine.execute('indices:data/read/scroll/clear', { scroll_id: scrollId }).catch(() => undefined);
  }
  if (job.refresh !== undefined) await engine.execute('indices:admin/refresh', { index: job.refresh } as EngineParams);
  const response: Record<string, unknown> = { took: Date.now() - startedAt, timed_out: false, ...task.status() };
  // The by-query REST answers leave some counts out (their task status keeps them).
  for (const k of job.omit) delete response[k];
  if (task.cancelled) response.canceled = task.cancelReason;
  response.failures = failures;
  return { status: worst, response };
}
