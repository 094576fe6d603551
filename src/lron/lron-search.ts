// `GET /_plugins/_im/lron`: the settings as the plugin's search over its index returns them:
// those its `queryString` matches (`*`: all), sorted on a field of the index's mapping (default
// `lron_config.priority`, ascending; missing values last, ties in index order), then `from` and
// `size`. A query or sort the mapping cannot serve fails as the search fails, with the shard's
// reason.
import { illegalArgument } from '../http/error-table';
import { OpenSearchError, type ErrorCause } from '../http/errors';
import { RecordQuery, type RecordField } from '../system/record-query-string';
import { CONTROL_CENTER_INDEX, type LronStore, type StoredLron } from './lron-store';

export interface LronSearch {
  readonly queryString: string;
  readonly sortField: string;
  readonly descending: boolean;
  readonly from: number;
  readonly size: number;
}

export interface LronPage {
  readonly total: number;
  readonly hits: Array<[string, StoredLron]>;
}

type SortValue = string | number | undefined;

// The keyword and integer fields of `.opensearch-control-center`'s mapping, and where they are.
const SORTABLE: Readonly<Record<string, (id: string, doc: StoredLron) => SortValue>> = {
  _id: (id) => id,
  'lron_config.priority': (_id, doc) => doc.priority,
  'lron_config.task_id': (_id, doc) => doc.lron_config.task_id,
  'lron_config.action_name': (_id, doc) => doc.lron_config.action_name,
  // Quarry stores no user with a setting (there is no security context to take it from yet).
  'lron_config.user.name.keyword': () => undefined,
  'lron_config.user.backend_roles.keyword': () => undefined,
  'lron_config.user.roles.keyword': () => undefined,
  'lron_config.user.custom_attribute_names.keyword': () => undefined,
};
type Hit = readonly [string, StoredLron];

// What `query_string` can search: the index's top-level fields (the nested channels and
// conditions are not reachable without a nested query). `*` covers all but `_id`.
const none = (): never[] => [];
const QUERY_FIELDS = new Map<string, RecordField<Hit>>([
  ['_id', { kind: 'keyword', values: ([id]) => [id] }],
  ['lron_config.task_id', { kind: 'keyword', values: ([, doc]) => (doc.lron_config.task_id === undefined ? [] : [doc.lron_config.task_id]) }],
  ['lron_config.action_name', { kind: 'keyword', values: ([, doc]) => (doc.lron_config.action_name === undefined ? [] : [doc.lron_config.action_name]) }],
  ['lron_config.priority', { kind: 'integer', values: ([, doc]) => [doc.priority] }],
  ...['name', 'backend_roles', 'roles', 'custom_attribute_names'].flatMap((f): Array<[string, RecordField<Hit>]> => [
    [`lron_config.user.${f}`, { kind: 'text', values: none }],
    [`lron_config.user.${f}.keyword`, { kind: 'keyword', values: none }],
  ]),
]);
const DEFAULT_FIELDS = [...QUERY_FIELDS.keys()].filter((f) => f !== '_id');

const NESTED = ['lron_config.channels.id', 'lron_config.lron_condition.success', 'lron_config.lron_condition.failure'];
const TEXT = ['lron_config.user.name', 'lron_config.user.backend_roles', 'lron_config.user.roles', 'lron_config.user.custom_attribute_names'];

/** A cause as a failed shard's `reason` prints it. */
function causeJson(c: ErrorCause): Record<string, unknown> {
  return { type: c.type, reason: c.reason, ...(c.extra ?? {}), ...(c.causedBy !== undefined ? { caused_by: causeJson(c.causedBy) } : {}) };
}

/** The search's failure on its one shard: `all shards failed`, with that shard's cause. */
function searchFailed(nodeId: string, indexUuid: string, cause: ErrorCause): OpenSearchError {
  const shardCause: ErrorCause =
    cause.type === 'query_shard_exception'
      ? { type: cause.type, reason: cause.reason, extra: { index: CONTROL_CENTER_INDEX, index_uuid: indexUuid }, causedBy: cause.causedBy }
      : { type: cause.type, reason: cause.reason, extra: cause.extra, causedBy: cause.causedBy };
  const reasonJson = causeJson(shardCause);
  return new OpenSearchError(
    400,
    'search_phase_execution_exception',
    'all shards failed',
    { phase: 'query', grouped: true, failed_shards: [{ shard: 0, index: CONTROL_CENTER_INDEX, node: nodeId, reason: reasonJson }] },
    shardCause,
    { rootCauses: [shardCause] },
  );
}

function sortCause(field: string): ErrorCause {
  if (NESTED.includes(field)) return { type: 'query_shard_exception', reason: `it is mandatory to set the [nested] context on the nested sort field: [${field}].` };
  if (TEXT.includes(field)) {
    return {
      type: 'illegal_argument_exception',
      reason:
        'Text fields are not optimised for operations that require per-document field data like aggregations and sorting, so these operations are disabled by default. ' +
        `Please use a keyword field instead. Alternatively, set fielddata=true on [${field}] in order to load field data by uninverting the inverted index. Note that this can use significant memory.`,
    };
  }
  return { type: 'query_shard_exception', reason: `No mapping found for [${field}] in order to sort on` };
}

export function searchLron(store: LronStore, nodeId: string, q: LronSearch): LronPage {
  if (q.from < 0) throw illegalArgument(`[from] parameter cannot be negative, found [${q.from}]`);
  if (q.size < 0) throw illegalArgument(`[size] parameter cannot be negative, found [${q.size}]`);
  // The plugin answers an empty list while its index does not exist.
  if (!store.exists) return { total: 0, hits: [] };
  let query: RecordQuery<Hit>;
  try {
    query = RecordQuery.parse(q.queryString, QUERY_FIELDS, DEFAULT_FIELDS);
  } catch (e) {
    if (e instanceof OpenSearchError) throw searchFailed(nodeId, store.indexUuid, e);
    throw e;
  }
  const all = store.entries().filter((hit) => query.matches(hit));
  const valueOf = q.sortField === '_doc' ? () => undefined : SORTABLE[q.sortField];
  if (valueOf === undefined) throw searchFailed(nodeId, store.indexUuid, sortCause(q.sortField));
  const keyed = all.map((entry, i) => ({ entry, i, key: valueOf(entry[0], entry[1]) }));
  keyed.sort((a, b) => {
    if (a.key === undefined || b.key === undefined) return a.key === b.key ? a.i - b.i : a.key === undefined ? 1 : -1;
    const c = typeof a.key === 'number' && typeof b.key === 'number' ? a.key - b.key : a.key < b.key ? -1 : a.key > b.key ? 1 : 0;
    return (q.descending ? -c : c) || a.i - b.i;
  });
  return { total: all.length, hits: keyed.slice(q.from, q.from + q.size).map((k) => k.entry) };
}
