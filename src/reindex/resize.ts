// Clone, shrink and split. OpenSearch hard-links the source's segments into the new index;
// Quarry's shards are tantivy indices, which cannot be re-split by linking, so the new index is
// made with the source's mappings and settings (its shard count checked as OpenSearch checks
// it) and the documents are copied in through the engine's own scroll and bulk, routing kept.
// The answer and the checks are OpenSearch's; what differs is that the copies start at
// version 1 and that it takes a copy's time (README says so).
import { OpenSearchError } from '../http/errors';
import { illegalArgument, validationFailed } from '../http/error-table';
import { locator } from '../http/body-locator';
import { readJsonObject } from '../http/json-body';
import type { NodeContext } from '../node-context';
import { runBulkByScroll } from './bulk-by-scroll';

export type ResizeKind = 'clone' | 'shrink' | 'split';

/** Settings a new index cannot take from its source: identity, and what the copy sets itself. */
const NOT_COPIED = new Set(['index.uuid', 'index.creation_date', 'index.provided_name', 'index.version.created', 'index.version.upgraded', 'index.number_of_shards', 'index.number_of_routing_shards']);

function flatten(prefix: string, value: unknown, out: Record<string, unknown>): void {
  if (value !== null && typeof value === 'object' && !Array.isArray(value)) {
    for (const [k, v] of Object.entries(value as Record<string, unknown>)) flatten(prefix === '' ? k : `${prefix}.${k}`, v, out);
    return;
  }
  out[prefix.startsWith('index.') ? prefix : `index.${prefix}`] = value;
}

function bodyOf(body: Buffer | undefined): { settings: Record<string, unknown>; aliases: Record<string, unknown> | undefined } {
  const o = readJsonObject(body);
  for (const k of Object.keys(o)) {
    if (k !== 'settings' && k !== 'aliases') throw new OpenSearchError(400, 'x_content_parse_exception', `${locator(body)([k], 'key')}[resize_request] unknown field [${k}]`);
  }
  const settings: Record<string, unknown> = {};
  if (o.settings !== undefined) flatten('', o.settings, settings);
  return { settings, aliases: o.aliases as Record<string, unknown> | undefined };
}

function targetShards(kind: ResizeKind, source: number, asked: unknown): number {
  const n = asked === undefined ? undefined : Number(asked);
  if (kind === 'clone') {
    if (n !== undefined && n !== source) throw illegalArgument(`the number of target shards (${n}) must be the same as the number of source shards (${source})`);
    return source;
  }
  if (kind === 'shrink') {
    const t = n ?? 1;
    if (t >= source) throw illegalArgument(`the number of target shards [${t}] must be less that the number of source shards [${source}]`);
    if (source % t !== 0) throw illegalArgument(`the number of source shards [${source}] must be a multiple of [${t}]`);
    return t;
  }
  if (n === undefined) throw validationFailed(['index.number_of_shards is required for split operations']);
  if (n % source !== 0) throw illegalArgument(`the number of source shards [${source}] must be a factor of [${n}]`);
  return n;
}

async function engineJson(node: NodeContext, action: string, params: Record<string, string>, body?: unknown): Promise<Record<string, unknown>> {
  const r = await node.engine.execute(action, params, body === undefined ? undefined : Buffer.from(JSON.stringify(body)));
  return JSON.parse(r.body.toString('utf8')) as Record<string, unknown>;
}

export async function runResize(node: NodeContext, kind: ResizeKind, source: string, target: string, rawBody: Buffer | undefined): Promise<Record<string, unknown>> {
  const { settings: asked, aliases } = bodyOf(rawBody);
  const got = (await engineJson(node, 'indices:monitor/settings/get', { index: source, flat_settings: 'true' }))[source] as { settings: Record<string, unknown> } | undefined;
  if (got === undefined) throw illegalArgument(`the source of a ${kind} must be an index, not an alias or a pattern: [${source}]`);
  const current = got.settings;
  if (String(current['index.blocks.write']) !== 'true') {
    throw new OpenSearchError(500, 'illegal_state_exception', `index ${source} must block write operations to resize index. use "index.blocks.write=true"`);
  }
  const shards = targetShards(kind, Number(current['index.number_of_shards']), asked['index.number_of_shards']);
  const mappings = ((await engineJson(node, 'indices:admin/mappings/get', { index: source }))[source] as { mappings: unknown }).mappings;
  const settings: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(current)) if (!NOT_COPIED.has(k) && !k.startsWith('index.blocks.')) settings[k] = v;
  Object.assign(settings, asked, { 'index.number_of_shards': shards });
  // The copy writes into the new index, so its blocks (the source's, or those asked for) are set after.
  const blocks: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(settings)) if (k.startsWith('index.blocks.')) blocks[k] = v;
  for (const [k, v] of Object.entries(current)) if (k.startsWith('index.blocks.') && !(k in asked)) blocks[k] = v;
  for (const k of Object.keys(blocks)) delete settings[k];
  // Templates do not apply to a resize's target: it copies its source.
  await engineJson(node, 'indices:admin/create', { index: target, _skip_templates: 'true' }, { settings, mappings, ...(aliases === undefined ? {} : { aliases }) });
  const copy = node.tasks.register('indices:data/write/reindex', undefined, false);
  try {
    const out = await runBulkByScroll(node.engine, copy, {
      index: source,
      search: {},
      batchSize: 1000,
      maxDocs: undefined,
      proceedOnConflicts: false,
      omit: [],
      refresh: target,
      requestsPerSecond: -1,
      writes: { op: 'index', dest: target, guard: false },
    });
    const failures = out.response.failures as unknown[];
    if (failures.length > 0) throw new OpenSearchError(500, 'exception', `copying [${source}] into [${target}] failed: ${JSON.stringify(failures[0])}`);
  } finally {
    node.tasks.unregister(copy);
  }
  if (Object.keys(blocks).length > 0) await engineJson(node, 'indices:admin/settings/update', { index: target }, blocks);
  return { acknowledged: true, shards_acknowledged: true, index: target };
}
