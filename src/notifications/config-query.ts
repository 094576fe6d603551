// `GET /_plugins/_notifications/configs` without ids: the plugin's filter parameters, sort and
// paging (ConfigQueryHelper), evaluated over the stored configs as its index query would match
// them: keyword fields exactly (a comma-separated list is any of its values), text fields by
// word, `is_enabled` as a boolean, the two time fields as `exact` or `from..to` (inclusive),
// `query` (all keyword and text fields) and `text_query` (text fields) as `query_string`s.
import { badBoolean, statusException } from '../http/error-table';
import type { OpenSearchError } from '../http/errors';
import { RecordQuery, type RecordField } from '../system/record-query-string';
import { textWords } from '../system/text-words';
import type { StoredConfig } from './config-store';
import { invalidRange, sortNotAcceptable } from './errors';
import { notificationConfigJson } from './notification-config';

const RANGE_FIELDS = ['last_updated_time_ms', 'created_time_ms'];
const BOOLEAN_FIELDS = ['is_enabled'];
const TEXT_FIELDS = [
  'name',
  'description',
  'slack.url',
  'chime.url',
  'microsoft_teams.url',
  'mattermost.url',
  'webhook.url',
  'smtp_account.host',
  'smtp_account.from_address',
  'sns.topic_arn',
  'sns.role_arn',
  'ses_account.role_arn',
  'ses_account.from_address',
];
const KEYWORD_FIELDS = [
  'config_type',
  'email.email_account_id',
  'email.email_group_id_list',
  'smtp_account.method',
  'ses_account.region',
  ...TEXT_FIELDS.map((f) => `${f}.keyword`),
];
const NESTED_TEXT_FIELDS = ['email.recipient_list.recipient', 'email_group.recipient_list.recipient'];
// Accepted as parameters by the plugin, but it builds no query for them.
const NESTED_KEYWORD_FIELDS = NESTED_TEXT_FIELDS.map((f) => `${f}.keyword`);

/** Every filter parameter `GET /configs` takes. */
export const FILTER_PARAMS: readonly string[] = [
  ...RANGE_FIELDS,
  ...BOOLEAN_FIELDS,
  ...KEYWORD_FIELDS,
  ...TEXT_FIELDS,
  ...NESTED_TEXT_FIELDS,
  ...NESTED_KEYWORD_FIELDS,
  'query',
  'text_query',
];

type Value = string | number | boolean;

/** The values of a dotted path in a config, as its index document holds them. */
function valuesAt(doc: StoredConfig, path: string): Value[] {
  if (path === 'last_updated_time_ms' || path === 'created_time_ms') return [doc[path]];
  let nodes: unknown[] = [notificationConfigJson(doc.config)];
  for (const part of path.replace(/\.keyword$/, '').split('.')) {
    const next: unknown[] = [];
    for (const n of nodes) {
      const v = n !== null && typeof n === 'object' && !Array.isArray(n) ? (n as Record<string, unknown>)[part] : undefined;
      if (Array.isArray(v)) next.push(...(v as unknown[]));
      else if (v !== undefined) next.push(v);
    }
    nodes = next;
  }
  return nodes.filter((v): v is Value => typeof v === 'string' || typeof v === 'number' || typeof v === 'boolean');
}

type Matcher = (doc: StoredConfig) => boolean;

// The index fields a `query_string` names (`config.<field>`), with their kinds.
const QUERY_FIELDS = new Map<string, RecordField<StoredConfig>>([
  ...[...KEYWORD_FIELDS, ...NESTED_KEYWORD_FIELDS].map((f): [string, RecordField<StoredConfig>] => [`config.${f}`, { kind: 'keyword', values: (d) => valuesAt(d, f) }]),
  ...[...TEXT_FIELDS, ...NESTED_TEXT_FIELDS].map((f): [string, RecordField<StoredConfig>] => [`config.${f}`, { kind: 'text', values: (d) => valuesAt(d, f) }]),
]);
const ALL_QUERY_FIELDS = [...KEYWORD_FIELDS, ...TEXT_FIELDS, ...NESTED_TEXT_FIELDS, ...NESTED_KEYWORD_FIELDS].map((f) => `config.${f}`);
const TEXT_QUERY_FIELDS = [...TEXT_FIELDS, ...NESTED_TEXT_FIELDS].map((f) => `config.${f}`);

function rangeMatcher(field: string, value: string): Matcher {
  const parts = value.split('..');
  if (parts.length > 2) throw invalidRange(value);
  const bound = (s: string | undefined): number | undefined => {
    if (s === undefined || s === '') return undefined;
    if (!/^-?\d+$/.test(s)) throw invalidRange(value);
    return Number(s);
  };
  const from = bound(parts[0]);
  const to = parts.length === 2 ? bound(parts[1]) : from;
  return (doc) => valuesAt(doc, field).some((v) => typeof v === 'number' && (from === undefined || v >= from) && (to === undefined || v <= to));
}

function matcherFor(field: string, value: string): Matcher {
  if (field === 'query' || field === 'text_query') {
    const q = RecordQuery.parse(value, QUERY_FIELDS, field === 'query' ? ALL_QUERY_FIELDS : TEXT_QUERY_FIELDS);
    return (doc) => q.matches(doc);
  }
  if (RANGE_FIELDS.includes(field)) return rangeMatcher(field, value);
  if (BOOLEAN_FIELDS.includes(field)) {
    // OpenSearch fails the whole search (a 500 "all shards failed"); the value is the problem.
    if (value !== 'true' && value !== 'false') throw badBoolean(value);
    const wanted = value === 'true';
    return (doc) => valuesAt(doc, field).includes(wanted);
  }
  if (KEYWORD_FIELDS.includes(field)) {
    const wanted = new Set(value.split(','));
    return (doc) => valuesAt(doc, field).some((v) => wanted.has(String(v)));
  }
  if (TEXT_FIELDS.includes(field) || NESTED_TEXT_FIELDS.includes(field)) {
    const wanted = new Set(textWords(value));
    return (doc) => valuesAt(doc, field).some((v) => textWords(String(v)).some((w) => wanted.has(w)));
  }
  throw statusException(406, `Query on ${field} not acceptable`);
}

/** The index field a `sort_field` sorts on, or the plugin's 406 for one it does not accept. */
function sortPath(sortField: string | undefined): string {
  if (sortField === undefined) return 'last_updated_time_ms';
  if (RANGE_FIELDS.includes(sortField) || BOOLEAN_FIELDS.includes(sortField) || KEYWORD_FIELDS.includes(sortField)) return sortField;
  if (TEXT_FIELDS.includes(sortField)) return `${sortField}.keyword`;
  throw sortNotAcceptable(sortField);
}

function compare(a: Value, b: Value): number {
  if (typeof a === 'number' && typeof b === 'number') return a - b;
  if (typeof a === 'boolean' && typeof b === 'boolean') return Number(a) - Number(b);
  const x = String(a);
  const y = String(b);
  return x < y ? -1 : x > y ? 1 : 0;
}

export interface ConfigQuery {
  readonly filters: ReadonlyArray<readonly [string, string]>;
  readonly sortField: string | undefined;
  readonly descending: boolean;
  readonly from: number;
  readonly size: number;
}

export interface ConfigPage {
  readonly total: number;
  readonly hits: Array<[string, StoredConfig]>;
}

/** `[from]`/`[size]` below zero, refused as the search source builder refuses them. */
export function negativePaging(name: 'from' | 'size', value: number): OpenSearchError {
  return statusException(400, `[${name}] parameter cannot be negative, found [${value}]`);
}

/**
 * Filters, sorts (missing values last, ties in index order; a multi-valued field by its lowest
 * value ascending, its highest descending) and pages.
 */
export function queryConfigs(all: ReadonlyArray<[string, StoredConfig]>, q: ConfigQuery): ConfigPage {
  const path = sortPath(q.sortField);
  // In the order the plugin builds its search: sort, size, from, then the filters.
  if (q.size < 0) throw negativePaging('size', q.size);
  if (q.from < 0) throw negativePaging('from', q.from);
  const matchers = q.filters.map(([field, value]) => matcherFor(field, value));
  const matching = all.filter(([, doc]) => matchers.every((m) => m(doc)));
  const keyed = matching.map((entry, i) => {
    const values = valuesAt(entry[1], path).sort(compare);
    return { entry, i, key: q.descending ? values[values.length - 1] : values[0] };
  });
  keyed.sort((a, b) => {
    if (a.key === undefined || b.key === undefined) return a.key === b.key ? a.i - b.i : a.key === undefined ? 1 : -1;
    const c = compare(a.key, b.key);
    return (q.descending ? -c : c) || a.i - b.i;
  });
  return { total: matching.length, hits: keyed.slice(q.from, q.from + q.size).map((k) => k.entry) };
}
