import { route, type ActionSpec } from '../../http/action';
import { validationFailed } from '../../http/error-table';
import { encodeJsonString } from '../../http/raw-json';
import { parseBodyObject, scrollOptions } from '../../reindex/request';
import { runScrollTask } from '../../reindex/scroll-task';

const ACTION = 'indices:data/write/delete/byquery';

// What the search part of the URL takes; handed to the engine's search as they are.
const SEARCH_PARAMS = ['q', 'df', 'default_operator', 'analyzer', 'analyze_wildcard', 'lenient', 'routing', 'preference', 'ignore_unavailable', 'allow_no_indices', 'expand_wildcards'];

// `POST /<index>/_delete_by_query`: deletes what a query finds, each document only if it has
// not changed since the search saw it (`if_seq_no`), so a concurrent write is a version conflict.
export const documentDeleteByQuery: ActionSpec = {
  action: ACTION,
  cancellable: true,
  routes: [route('POST', '/:index/_delete_by_query')],
  params: [...SEARCH_PARAMS, 'conflicts', 'max_docs', 'refresh', 'timeout', 'wait_for_active_shards', 'wait_for_completion', 'requests_per_second', 'slices', 'scroll', 'scroll_size', 'search_timeout'],
  run: (request, node) => {
    const p = request.params;
    const body = parseBodyObject(request.body);
    const options = scrollOptions(p, body, 'delete_by_query', p.conflicts);
    const { conflicts: _c, max_docs: _m, ...search } = body;
    if (search.query === undefined && p.q === undefined) throw validationFailed(['query is missing']);
    const index = p.index ?? '';
    const batch = p.scroll_size === undefined ? 1000 : Number(p.scroll_size);
    return runScrollTask(request, node, ACTION, `delete-by-query [${index}]`, options.waitForCompletion, {
      index,
      search,
      searchParams: Object.fromEntries(SEARCH_PARAMS.filter((k) => p[k] !== undefined).map((k) => [k, p[k] as string])),
      batchSize: Number.isInteger(batch) && batch > 0 ? batch : 1000,
      maxDocs: options.maxDocs,
      proceedOnConflicts: options.proceedOnConflicts,
      deletes: true,
      refresh: options.refresh ? index : undefined,
      requestsPerSecond: options.requestsPerSecond,
      linesFor: (hit) => {
        const guard = hit.seqNo === undefined ? '' : `,"if_seq_no":${hit.seqNo},"if_primary_term":${hit.primaryTerm}`;
        const routing = hit.routing === undefined ? '' : `,"routing":${encodeJsonString(hit.routing)}`;
        return `{"delete":{"_index":${encodeJsonString(hit.index)},"_id":${encodeJsonString(hit.id)}${routing}${guard}}}\n`;
      },
    });
  },
};
