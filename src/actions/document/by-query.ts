// What delete-by-query and update-by-query share: the search part of the URL, the body, and the
// job over the matching documents, each written back (or deleted) in its own index with its
// own routing, only if the search saw it unchanged (`if_seq_no`), so a concurrent write is a
// version conflict.
import type { ActionRequest } from '../../http/action';
import type { EngineResponse } from '../../engine';
import { illegalArgument } from '../../http/error-table';
import type { NodeContext } from '../../node-context';
import { scrollOptions } from '../../reindex/request';
import { readJsonObject } from '../../http/json-body';
import { locator } from '../../http/body-locator';
import { runScrollTask } from '../../reindex/scroll-task';

/** URL parameters of the search, handed to the engine's search as they are. */
export const SEARCH_PARAMS = ['q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

export const BY_QUERY_PARAMS = [...SEARCH_PARAMS, 'conflicts', 'max_docs', 'refresh', 'timeout', 'wait_for_active_shards', 'wait_for_completion', 'requests_per_second', 'slices', 'scroll', 'scroll_size', 'search_timeout'];

export interface ByQuery {
  readonly action: string;
  /** `delete_by_query`, `update_by_query`: the parser name in messages and the description. */
  readonly name: string;
  /** The refusal of a request without a query, when one is needed. */
  readonly missingQuery?: () => Error;
  readonly omit: ReadonlyArray<'updated' | 'created'>;
  /** The hits' documents are not needed (the search asks for none). */
  readonly withoutSource?: boolean;
  /** What each hit becomes: written again as it is, or deleted, each only if unchanged since the search. */
  readonly op: 'index' | 'delete';
}

export function runByQuery(request: ActionRequest, node: NodeContext, spec: ByQuery): Promise<EngineResponse> {
  const p = request.params;
  const body = readJsonObject(request.body);
  const options = scrollOptions(p, body, spec.name, p.conflicts, locator(request.body));
  const { conflicts: _c, max_docs: _m, ...search } = body;
  if (search.script !== undefined) throw illegalArgument('[script] is not supported: Quarry has no scripting language');
  if (spec.missingQuery !== undefined && search.query === undefined && p.q === undefined) throw spec.missingQuery();
  const index = p.index ?? '';
  const batch = p.scroll_size === undefined ? 1000 : Number(p.scroll_size);
  // Not among the operations notification settings serve (OpenSearch's neither).
  return runScrollTask(request, node, spec.action, `${spec.name.replace(/_/g, '-')} [${index}]`, options.waitForCompletion, undefined, {
    index,
    search: spec.withoutSource === true ? { ...search, _source: false } : search,
    searchParams: Object.fromEntries(SEARCH_PARAMS.filter((k) => p[k] !== undefined).map((k) => [k, p[k] as string])),
    batchSize: Number.isInteger(batch) && batch > 0 ? batch : 1000,
    maxDocs: options.maxDocs,
    proceedOnConflicts: options.proceedOnConflicts,
    omit: spec.omit,
    refresh: options.refresh ? index : undefined,
    requestsPerSecond: options.requestsPerSecond,
    writes: { op: spec.op, guard: true },
  });
}
