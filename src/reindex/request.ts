// What reindex and delete-by-query take: OpenSearch's URL parameters and body fields, checked
// with its messages. Quarry runs every request as one slice (`slices` is validated, and the
// answer is the same), has no scripting language (a `script` is refused), and no remote source.
import { OpenSearchError, type ErrorCause } from '../http/errors';
import { illegalArgument, validationFailed } from '../http/error-table';
import { parseBoolParam, parseFloatParam, parseIntParam } from '../http/common-params';
import type { Locate } from '../http/body-locator';

export interface ScrollOptions {
  readonly waitForCompletion: boolean;
  readonly refresh: boolean;
  readonly requestsPerSecond: number;
  readonly maxDocs: number | undefined;
  readonly proceedOnConflicts: boolean;
}

export interface ReindexRequest extends ScrollOptions {
  readonly sourceIndex: string;
  /** Search body fields of `source` (query, `_source`, …), handed to the engine's search. */
  readonly search: Record<string, unknown>;
  readonly batchSize: number;
  readonly destIndex: string;
  readonly opType: 'index' | 'create';
  readonly routing: string | undefined;
}

function contentParse(reason: string, causedBy?: ErrorCause): OpenSearchError {
  return new OpenSearchError(400, 'x_content_parse_exception', reason, {}, causedBy);
}

/** `[slices]`: a positive integer or `auto`. */
function checkSlices(value: string | undefined): void {
  if (value === undefined || value === 'auto') return;
  const n = /^-?\d+$/.test(value) ? Number(value) : NaN;
  if (Number.isNaN(n)) {
    throw illegalArgument(`[slices] must be a positive integer or the string "auto", but was [${value}]`, { type: 'number_format_exception', reason: `For input string: "${value}"` });
  }
  if (n < 1) throw illegalArgument(`[slices] must be a positive integer or the string "auto", but was [${value}]`);
}

/** `requests_per_second`: a float > 0, or -1 for no throttling. */
function requestsPerSecond(value: string | undefined): number {
  const v = parseFloatParam('requests_per_second', value, -1);
  if (v === -1) return -1;
  if (!(v > 0)) throw illegalArgument('[requests_per_second] must be a float greater than 0. Use -1 to disable throttling.');
  return v;
}

function maxDocsOf(urlValue: string | undefined, bodyValue: unknown): number | undefined {
  const fromUrl = parseIntParam('max_docs', urlValue, -1);
  const n = typeof bodyValue === 'number' ? bodyValue : fromUrl;
  if (n === -1) return undefined;
  if (!Number.isInteger(n) || n < 1) throw validationFailed([`maxDocs should be greater than 0 if the request is limited to some number of documents or -1 if it isn't but it was [${n}]`]);
  return n;
}

function conflictsOf(value: unknown, parser: string, at: string): boolean {
  if (value === undefined || value === 'abort') return false;
  if (value === 'proceed') return true;
  throw contentParse(`${at}[${parser}] failed to parse field [conflicts]`, { type: 'illegal_argument_exception', reason: `conflicts may only be "proceed" or "abort" but was [${String(value)}]` });
}

export function scrollOptions(params: Readonly<Record<string, string>>, body: Record<string, unknown>, parser: string, conflictsParam?: string, locate?: Locate): ScrollOptions {
  checkSlices(params.slices);
  return {
    waitForCompletion: parseBoolParam('wait_for_completion', params.wait_for_completion, true),
    refresh: params.refresh !== undefined && params.refresh !== 'false',
    requestsPerSecond: requestsPerSecond(params.requests_per_second),
    maxDocs: maxDocsOf(params.max_docs, body.max_docs),
    proceedOnConflicts: conflictsOf(body.conflicts ?? conflictsParam, parser, body.conflicts === undefined || locate === undefined ? '' : locate(['conflicts'], 'value')),
  };
}


const REINDEX_FIELDS = new Set(['source', 'dest', 'conflicts', 'max_docs', 'size', 'script']);
const DEST_FIELDS = new Set(['index', 'op_type', 'version_type', 'routing', 'pipeline', 'type']);

function indexNames(v: unknown): string | undefined {
  if (typeof v === 'string' && v !== '') return v;
  if (Array.isArray(v) && v.length > 0 && v.every((x) => typeof x === 'string')) return v.join(',');
  return undefined;
}

export function parseReindex(params: Readonly<Record<string, string>>, body: Record<string, unknown>, locate: Locate): ReindexRequest {
  for (const k of Object.keys(body)) if (!REINDEX_FIELDS.has(k)) throw contentParse(`${locate([k], 'key')}[reindex] unknown field [${k}]`);
  if (body.script !== undefined) throw illegalArgument('[script] is not supported: Quarry has no scripting language');
  const source = (body.source ?? {}) as Record<string, unknown>;
  const dest = (body.dest ?? {}) as Record<string, unknown>;
  if (typeof source !== 'object' || Array.isArray(source)) throw contentParse('[reindex] failed to parse field [source]');
  if (typeof dest !== 'object' || Array.isArray(dest)) throw contentParse('[reindex] failed to parse field [dest]');
  if (source.remote !== undefined) throw illegalArgument('[remote] is not supported: Quarry reindexes from its own indices only');
  for (const k of Object.keys(dest)) {
    if (DEST_FIELDS.has(k)) continue;
    // The inner parser names the field; the outer one has moved on to its value by then.
    throw contentParse(`${locate(['dest', k], 'value')}[reindex] failed to parse field [dest]`, {
      type: 'x_content_parse_exception',
      reason: `${locate(['dest', k], 'key')}[dest] unknown field [${k}]`,
    });
  }
  const opType = dest.op_type ?? 'index';
  if (opType !== 'index' && opType !== 'create') {
    const at = locate(['dest', 'op_type'], 'value');
    throw contentParse(`${at}[reindex] failed to parse field [dest]`, {
      type: 'x_content_parse_exception',
      reason: `${at}[dest] failed to parse field [op_type]`,
      causedBy: { type: 'illegal_argument_exception', reason: `opType must be 'create' or 'index', found: [${String(opType)}]` },
    });
  }
  if (dest.version_type !== undefined && dest.version_type !== 'internal') throw illegalArgument(`[version_type] [${String(dest.version_type)}] is not supported: Quarry reindexes with internal versions`);
  if (dest.pipeline !== undefined) throw illegalArgument('[pipeline] is not supported: Quarry has no ingest pipelines');
  const errors: string[] = [];
  const sourceIndex = indexNames(source.index);
  const destIndex = typeof dest.index === 'string' && dest.index !== '' ? dest.index : undefined;
  if (sourceIndex === undefined) errors.push('use _all if you really want to copy from all existing indexes');
  if (destIndex === undefined) errors.push('index must be specified');
  if (sourceIndex !== undefined && destIndex !== undefined && sourceIndex.split(',').includes(destIndex)) errors.push(`reindex cannot write into an index its reading from [${destIndex}]`);
  const options = scrollOptions(params, { ...body, max_docs: body.max_docs ?? body.size }, 'reindex', undefined, locate);
  if (errors.length > 0) throw validationFailed(errors);
  const { index: _index, size, ...search } = source;
  return {
    ...options,
    sourceIndex: sourceIndex as string,
    search,
    batchSize: typeof size === 'number' && size > 0 ? size : 1000,
    destIndex: destIndex as string,
    opType,
    routing: typeof dest.routing === 'string' ? dest.routing : undefined,
  };
}
