// npm run compat:fuzz -- --quarry <url> [--opensearch http://127.0.0.1:9201] [--kind <kind>]...
//                        [--rounds 400] [--seed 1] [--docs 3000] [--messages] [--keep]
//
// Sends the same random requests to a real OpenSearch and to Quarry and prints where they part:
// the status, the total, the hit ids, and (for errors) the type and root cause's type; with
// --messages the root cause's reason too. It finds what hand-written scenarios miss; each
// divergence worth keeping becomes a recorded step in scenarios/ (nothing here is a test).
//
//   kinds: query_string, simple_query_string (random operator strings), dsl (query trees with
//   wrong types and odd options), body (search body parameters), url (_search URL parameters),
//   sort (sort levels with order, mode, missing, unmapped_type), highlight (highlighter options on
//   text queries), scores (well-formed scoring query trees, with dfs_query_then_fetch at times),
//   count, explain and validate (_count, _explain/<id> and _validate/query?explain with scoring
//   and malformed trees: the count, whether and how the document matched with its top
//   explanation, each shard's validity and explanation text); all of them by default. Besides status, total and ids, every hit's `_score`
//   (to 1e-5 relative), `sort` values and `highlight` are compared.
//
// Both servers get the index `fuzz_docs`: the first --docs documents of
// ../shared/corpus/debian-packages.ndjson.gz, on two shards, mapped as the bench workload maps
// them (and keep it with --keep, for probing by hand). An OpenSearch 500 (its own bugs: a null pointer, an illegal state) is not counted.

import fs from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';

// The benches' corpus reader: the same `_bulk` bodies and mapping they index.
const corpus = createRequire(__filename)('../../bench/lib/corpus.js') as {
  buildBodies(dir: string, name: string, opts: { batch: number; limit: number }): { bodies: Buffer[] };
  mappingPath(name: string): string;
};

interface Args {
  quarry: string;
  opensearch: string;
  kinds: string[];
  rounds: number;
  seed: number;
  docs: number;
  messages: boolean;
  keep: boolean;
}

const KINDS = ['query_string', 'simple_query_string', 'dsl', 'body', 'url', 'sort', 'highlight', 'scores', 'count', 'explain', 'validate'];
const INDEX = 'fuzz_docs';

function parseArgs(argv: string[]): Args {
  const args: Args = { quarry: '', opensearch: 'http://127.0.0.1:9201', kinds: [], rounds: 400, seed: 1, docs: 3000, messages: false, keep: false };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i] as string;
    if (flag === '--messages' || flag === '--keep') {
      args[flag.slice(2) as 'messages' | 'keep'] = true;
      continue;
    }
    const v = argv[++i];
    if (v === undefined) throw new Error(`${flag} needs a value`);
    switch (flag) {
      case '--quarry':
        args.quarry = v;
        break;
      case '--opensearch':
        args.opensearch = v;
        break;
      case '--kind':
        args.kinds.push(v);
        break;
      case '--rounds':
      case '--seed':
      case '--docs':
        args[flag.slice(2) as 'rounds' | 'seed' | 'docs'] = Number(v);
        break;
      default:
        throw new Error(`unknown argument ${flag}`);
    }
  }
  if (!args.quarry) throw new Error('--quarry <url> is required (a node started with `npm start`)');
  for (const k of args.kinds) if (!KINDS.includes(k)) throw new Error(`--kind is one of ${KINDS.join(', ')}`);
  if (args.kinds.length === 0) args.kinds = KINDS;
  return args;
}

/** A small seeded generator (the same seed replays the same requests). */
class Rng {
  constructor(private state: number) {}
  below(n: number): number {
    this.state = (this.state * 1103515245 + 12345) & 0x7fffffff;
    // The high bits: an LCG's low bits repeat with short periods.
    return (this.state >>> 15) % n;
  }
  pick<T>(items: readonly T[]): T {
    return items[this.below(items.length)] as T;
  }
}

interface Request {
  method: 'GET' | 'POST';
  url: string;
  body?: unknown;
}

const FIELDS = ['description', 'description_short', 'package', 'section', 'tags', 'size', 'installed_size', 'nosuch'];
const WORDS = ['game', 'network', 'file system', 'lib', 'python3', 'x11', 'Game', '100', '-5', 'a*', ''];
const QS_PIECES = ['a', 'game', 'net*', 'f?le', 'description:', 'package:', 'size:', '*', '?', ' ', '(', ')', '[', ']', '{', '}', '"', '~', '~2', '^', '^2', '/', '\\', '+', '-', '!', '&&', '||', 'AND', 'OR', 'NOT', ' TO ', '>', '<=', '=', '.', '2', '100', 'lib[a-z]+', '_exists_:', '*:*'];
const SQS_PIECES = ['game', 'net*', 'file', ' ', '(', ')', '"', '~', '~2', '+', '-', '|', '*', '\\', 'lib'];

function value(r: Rng): unknown {
  return r.pick<unknown>([r.pick(WORDS), r.below(100000), -1, 0, 1.5, true, null, [], {}, [r.pick(WORDS)], 'abc', '2020-01-01']);
}

function queryTree(r: Rng, depth: number): Record<string, unknown> {
  const f = r.pick(FIELDS);
  const leaves = ['match', 'match_phrase', 'term', 'terms', 'range', 'prefix', 'wildcard', 'regexp', 'fuzzy', 'exists', 'ids', 'multi_match', 'match_all'];
  const compound = ['bool', 'constant_score', 'dis_max', 'boosting', 'function_score'];
  const kind = depth > 2 ? r.pick(leaves) : r.pick([...leaves, ...compound]);
  const boost = () => (r.below(3) === 0 ? { boost: r.pick<unknown>([2, 0, -1, 'x']) } : {});
  switch (kind) {
    case 'match':
      return { match: { [f]: r.below(2) ? value(r) : { query: value(r), operator: r.pick(['and', 'or', 'xor']), fuzziness: r.pick<unknown>(['AUTO', 1, 'x', undefined]), minimum_should_match: r.pick<unknown>(['50%', 2, 'x', undefined]), ...boost() } } };
    case 'match_phrase':
      return { match_phrase: { [f]: r.below(2) ? value(r) : { query: value(r), slop: r.pick<unknown>([0, 2, -1, 'x']) } } };
    case 'term':
      // Now and then a boost or _name beside the field, which OpenSearch takes for a second field.
      if (r.below(8) === 0) return { term: { [f]: value(r), ...r.pick<Record<string, unknown>>([{ boost: 2 }, { _name: 'n' }]) } };
      return { term: { [f]: r.below(2) ? value(r) : { value: value(r), ...boost() } } };
    case 'terms':
      return { terms: { [f]: r.below(3) ? [value(r), value(r)] : value(r) } };
    case 'range':
      return { range: { [f]: { [r.pick(['gt', 'gte', 'lt', 'lte', 'x'])]: value(r), ...(r.below(4) === 0 ? { format: r.pick(['yyyy', 'x']) } : {}) } } };
    case 'prefix':
    case 'fuzzy':
      return { [kind]: { [f]: r.below(2) ? value(r) : { value: value(r) } } };
    case 'wildcard':
      return { wildcard: { [f]: r.pick<unknown>(['ga*', '*me', 'g?me', '*', value(r)]) } };
    case 'regexp':
      return { regexp: { [f]: r.pick<unknown>(['ga.*', '[a-', '(', 'g{2,1}', value(r)]) } };
    case 'exists':
      return { exists: { field: r.below(5) ? f : value(r) } };
    case 'ids':
      return { ids: { values: r.below(3) ? ['0ad', 'vim', value(r)] : value(r) } };
    case 'multi_match':
      return { multi_match: { query: value(r), fields: [f, r.pick(FIELDS) + r.pick(['', '^2', '^x'])], type: r.pick(['best_fields', 'most_fields', 'cross_fields', 'phrase', 'phrase_prefix', 'bool_prefix', 'x']), ...boost() } };
    case 'match_all':
      return { match_all: boost() };
    case 'bool': {
      const b: Record<string, unknown> = {};
      for (const o of ['must', 'should', 'filter', 'must_not']) if (r.below(2)) b[o] = r.below(2) ? queryTree(r, depth + 1) : [queryTree(r, depth + 1), queryTree(r, depth + 1)];
      if (r.below(3) === 0) b.minimum_should_match = r.pick<unknown>([1, '50%', 'x', 3]);
      return { bool: b };
    }
    case 'constant_score':
      return { constant_score: { filter: queryTree(r, depth + 1), ...boost() } };
    case 'dis_max':
      return { dis_max: { queries: [queryTree(r, depth + 1), queryTree(r, depth + 1)], tie_breaker: r.pick<unknown>([0, 0.3, 'x']) } };
    case 'boosting':
      return { boosting: { positive: queryTree(r, depth + 1), negative: queryTree(r, depth + 1), negative_boost: r.pick<unknown>([0.2, -1, 'x']) } };
    default:
      return { function_score: { query: queryTree(r, depth + 1), functions: [r.pick<unknown>([{ weight: 2 }, { field_value_factor: { field: f, modifier: r.pick(['log1p', 'x']) } }])], score_mode: r.pick(['sum', 'avg', 'x']) } };
  }
}

const BODY: Record<string, (r: Rng) => unknown> = {
  from: (r) => r.pick<unknown>([0, 2, -1, 'x', 10000]),
  size: (r) => r.pick<unknown>([0, 2, -1, 'x', 10001]),
  sort: (r) => r.pick<unknown>([r.pick(FIELDS), [{ [r.pick(FIELDS)]: r.pick<unknown>(['asc', 'x', { order: 'desc', mode: r.pick(['min', 'avg', 'x']) }, { missing: '_first' }]) }], '_doc', { _score: { order: 'asc', missing: '_last' } }]),
  _source: (r) => r.pick<unknown>([false, 'pack*', ['section'], { includes: ['s*'], excludes: ['size'] }, 5]),
  track_total_hits: (r) => r.pick<unknown>([true, false, 5, -1, -2, 'x']),
  min_score: (r) => r.pick<unknown>([0, 1, 5, 'x']),
  terminate_after: (r) => r.pick<unknown>([1, 0, -1, 'x']),
  stored_fields: (r) => r.pick<unknown>(['_none_', ['_source'], 'size']),
  docvalue_fields: (r) => r.pick<unknown>([['size'], [{ field: 'size', format: '0.0' }], ['description'], 'size']),
  fields: (r) => r.pick<unknown>([['size'], ['s*'], [{ field: 'size', format: '0.0' }], 'size']),
  search_after: (r) => r.pick<unknown>([[1], ['a'], 'x', []]),
  post_filter: (r) => r.pick<unknown>([{ term: { section: 'games' } }, { nosuch: {} }]),
  highlight: (r) => r.pick<unknown>([{ fields: { description: {} } }, { fields: { size: {} } }, 'x']),
  indices_boost: (r) => r.pick<unknown>([[{ [INDEX]: 2 }], { [INDEX]: 2 }, 'x']),
};

const TEXT_QUERIES = [
  { match: { description: 'network file system' } },
  { match_phrase: { description: 'command line' } },
  { query_string: { query: 'game* OR "text editor"' } },
  { multi_match: { query: 'python library', fields: ['description_short', 'description'] } },
  { bool: { must: { match: { description: 'library' } }, should: { match: { description_short: 'python' } } } },
  { match: { description: { query: 'netwrk', fuzziness: 'AUTO' } } },
  { prefix: { description: 'net' } },
  { wildcard: { description: 'f*e' } },
  { term: { section: 'games' } },
  { match_all: {} },
];

/** A well-formed scoring query: text leaves under bool, dis_max, boosting, function_score. */
function scoringTree(r: Rng, depth: number): Record<string, unknown> {
  const words = ['network', 'file system', 'python library', 'game', 'the', 'editor text', 'data files', 'command line tool'];
  const text = ['description', 'description_short'];
  const boost = () => (r.below(3) === 0 ? { boost: r.pick([0.5, 2, 3.7]) } : {});
  const leaf = (): Record<string, unknown> => {
    switch (r.below(14)) {
      case 8:
        return { match_all: boost() };
      case 9:
        return { match: { installed_size: { query: r.pick([10, 1000, '2048']), ...boost() } } };
      case 10:
        return { exists: { field: r.pick(['tags', 'homepage', 'installed_size', 'nosuch']), ...boost() } };
      case 11:
        return { terms: { section: r.pick([['games', 'python'], ['net']]), ...boost() } };
      case 12:
        return { wildcard: { description: { value: r.pick(['net*', '*ing', 'p?thon']), ...boost() } } };
      case 13:
        return { prefix: { package: { value: r.pick(['lib', 'python3-', 'g']), ...boost() } } };
      case 0:
        return { match: { [r.pick(text)]: { query: r.pick(words), operator: r.pick(['or', 'and']), ...boost() } } };
      case 1:
        return { match_phrase: { [r.pick(text)]: { query: r.pick(words), slop: r.pick([0, 1, 3]), ...boost() } } };
      case 2:
        return { multi_match: { query: r.pick(words), fields: ['description', 'description_short^2'], type: r.pick(['best_fields', 'most_fields', 'cross_fields', 'phrase']), tie_breaker: r.pick([0, 0.3]), ...boost() } };
      case 3:
        return { term: { section: { value: r.pick(['games', 'python', 'net', 'libs']), ...boost() } } };
      case 4:
        return { query_string: { query: r.pick(['network OR file', 'python AND library', '"text editor"~2', 'descr*:game', 'game^2 data']), ...boost() } };
      case 5:
        return { match: { description: { query: r.pick(['netwrk', 'pythn', 'libary']), fuzziness: 'AUTO' } } };
      case 6:
        return { range: { installed_size: { gte: r.pick([10, 1000, 10000]), ...boost() } } };
      default:
        return { match_bool_prefix: { description: r.pick(['network fi', 'python li', 'text ed']) } };
    }
  };
  if (depth > 1) return leaf();
  switch (r.below(6)) {
    case 0: {
      const b: Record<string, unknown> = {};
      for (const o of ['must', 'should', 'filter', 'must_not']) if (r.below(2)) b[o] = [scoringTree(r, depth + 1), scoringTree(r, depth + 1)].slice(0, 1 + r.below(2));
      if (!b.must && !b.should && r.below(3)) b.should = [leaf()];
      if (r.below(4) === 0) b.must = [{ match_all: boost() }];
      if (r.below(4) === 0) b.minimum_should_match = r.pick<unknown>([1, 2, '50%', '-1', '100%']);
      return { bool: { ...b, ...boost() } };
    }
    case 1:
      return { dis_max: { queries: [scoringTree(r, depth + 1), scoringTree(r, depth + 1)], tie_breaker: r.pick([0, 0.4]) } };
    case 2:
      return { boosting: { positive: scoringTree(r, depth + 1), negative: leaf(), negative_boost: r.pick([0.2, 0.5]) } };
    case 3:
      return { function_score: { query: scoringTree(r, depth + 1), functions: [r.pick<unknown>([{ weight: 2 }, { field_value_factor: { field: 'installed_size', modifier: 'log1p', missing: 1 } }, { gauss: { installed_size: { origin: 1000, scale: 500 } } }])], score_mode: r.pick(['sum', 'multiply', 'max']), boost_mode: r.pick(['multiply', 'sum', 'replace']) } };
    case 4:
      return { constant_score: { filter: r.below(2) ? leaf() : scoringTree(r, depth + 1), ...boost() } };
    default:
      return leaf();
  }
}

function sortLevel(r: Rng): unknown {
  const field = r.pick(['size', 'installed_size', 'package', 'section', 'tags', 'version', '_score', 'nosuch', 'description']);
  switch (r.below(4)) {
    case 0:
      return field;
    case 1:
      return { [field]: r.pick(['asc', 'desc']) };
    default: {
      const o: Record<string, unknown> = {};
      if (r.below(2)) o.order = r.pick(['asc', 'desc']);
      if (r.below(3) === 0) o.mode = r.pick(['min', 'max', 'avg', 'sum', 'median']);
      if (r.below(3) === 0) o.missing = r.pick<unknown>(['_first', '_last', 5, 'zzz']);
      if (r.below(4) === 0) o.unmapped_type = r.pick(['long', 'keyword', 'x']);
      return { [field]: o };
    }
  }
}

function highlightSpec(r: Rng): Record<string, unknown> {
  const opts = (): Record<string, unknown> => {
    const o: Record<string, unknown> = {};
    if (r.below(3) === 0) o.fragment_size = r.pick<unknown>([0, 20, 50, 150, 400]);
    if (r.below(3) === 0) o.number_of_fragments = r.pick<unknown>([0, 1, 3, 10]);
    if (r.below(4) === 0) o.pre_tags = r.pick<unknown>([['<b>'], ['[', '{']]);
    if (r.below(4) === 0) o.post_tags = r.pick<unknown>([['</b>'], [']', '}']]);
    if (r.below(4) === 0) o.require_field_match = r.pick([true, false]);
    if (r.below(5) === 0) o.no_match_size = r.pick<unknown>([0, 30, 200]);
    if (r.below(5) === 0) o.order = r.pick(['score', 'none']);
    if (r.below(6) === 0) o.highlight_query = { match: { description: r.pick(['game', 'library python', 'network']) } };
    if (r.below(6) === 0) o.type = r.pick(['unified', 'plain']);
    return o;
  };
  const fields: Record<string, unknown> = {};
  for (const f of ['description', 'description_short', 'package', 'section', 'desc*', 'size']) if (r.below(3) === 0) fields[f] = opts();
  if (Object.keys(fields).length === 0) fields.description = opts();
  return { ...opts(), fields };
}

const URL_PARAMS: Record<string, (r: Rng) => string> = {
  q: (r) => r.pick(['game', 'description:game', 'size:>100', 'x:(']),
  df: (r) => r.pick(['description', 'nosuch']),
  default_operator: (r) => r.pick(['AND', 'x']),
  lenient: (r) => r.pick(['true', 'x']),
  from: (r) => r.pick(['2', '-1', 'x']),
  size: (r) => r.pick(['0', '-1', 'x']),
  sort: (r) => r.pick(['size:desc', 'size:up', 'nosuch:asc', ':asc']),
  _source: (r) => r.pick(['false', 'section', 'x']),
  docvalue_fields: (r) => r.pick(['size', 'description']),
  track_total_hits: (r) => r.pick(['false', '5', '-1', 'x']),
  rest_total_hits_as_int: (r) => r.pick(['true', 'x']),
  terminate_after: (r) => r.pick(['1', '-1', 'x']),
  preference: (r) => r.pick(['_local', '_shards:0', '_shards:x', 'abc']),
  search_type: (r) => r.pick(['dfs_query_then_fetch', 'x']),
  suggest_field: () => 'description',
  suggest_text: () => 'netwrk',
  nosuch_param: () => '1',
};

function generate(kind: string, r: Rng): Request {
  const search = `/${INDEX}/_search`;
  switch (kind) {
    case 'query_string':
    case 'simple_query_string': {
      const pieces = kind === 'query_string' ? QS_PIECES : SQS_PIECES;
      const query = Array.from({ length: 1 + r.below(6) }, () => r.pick(pieces)).join('');
      return { method: 'POST', url: search, body: { query: { [kind]: { query } }, size: 3, _source: false } };
    }
    case 'dsl':
      return { method: 'POST', url: search, body: { query: queryTree(r, 0), size: 3, _source: false, track_total_hits: true } };
    case 'body': {
      const body: Record<string, unknown> = { query: r.pick([{ match: { description: 'game' } }, { match_all: {} }, { term: { section: 'games' } }]), size: 3 };
      const keys = Object.keys(BODY);
      for (let k = 0; k < 1 + r.below(3); k++) {
        const key = r.pick(keys);
        body[key] = (BODY[key] as (r: Rng) => unknown)(r);
      }
      return { method: 'POST', url: search, body };
    }
    case 'sort': {
      const sort = Array.from({ length: 1 + r.below(3) }, () => sortLevel(r));
      return { method: 'POST', url: search, body: { query: r.pick(TEXT_QUERIES), sort: r.below(5) ? sort : sort[0], size: 5, _source: false, track_scores: r.below(2) === 0 } };
    }
    case 'scores': {
      const dfs = r.below(3) === 0 ? '?search_type=dfs_query_then_fetch' : '';
      return { method: 'POST', url: `${search}${dfs}`, body: { query: scoringTree(r, 0), size: 10, _source: false, track_total_hits: true } };
    }
    case 'count':
      return { method: 'POST', url: `/${INDEX}/_count`, body: { query: r.below(2) ? scoringTree(r, 0) : queryTree(r, 0) } };
    case 'explain': {
      const id = r.pick(['0ad', 'vim', 'ceph', 'python3-fsquota', 'atfs', 'libcephfs2', 'nosuch']);
      return { method: 'POST', url: `/${INDEX}/_explain/${id}`, body: { query: r.below(3) ? scoringTree(r, 0) : queryTree(r, 0) } };
    }
    case 'validate':
      return { method: 'POST', url: `/${INDEX}/_validate/query?explain=true${r.below(3) === 0 ? '&rewrite=true' : ''}`, body: { query: r.below(2) ? scoringTree(r, 0) : queryTree(r, 0) } };
    case 'highlight':
      return { method: 'POST', url: search, body: { query: r.pick(TEXT_QUERIES), highlight: highlightSpec(r), size: 5, _source: false } };
    default: {
      const params = new URLSearchParams({ size: '3', sort: 'package:asc' });
      const keys = Object.keys(URL_PARAMS);
      for (let k = 0; k < 1 + r.below(3); k++) {
        const key = r.pick(keys);
        params.set(key, (URL_PARAMS[key] as (r: Rng) => string)(r));
      }
      return { method: 'GET', url: `${search}?${params}` };
    }
  }
}

interface Answer {
  status: number;
  total: unknown;
  ids: string;
  error: string;
  reason: string;
  /** Each hit's score, sort values and highlight. */
  hits: { score: unknown; sort: unknown; highlight: unknown }[];
}

function sameScore(a: unknown, b: unknown): boolean {
  if (typeof a !== 'number' || typeof b !== 'number') return a === b;
  return Math.abs(a - b) <= 1e-5 * Math.max(Math.abs(a), Math.abs(b));
}

/** Where two answers' hits part, or '' when they agree. */
function hitsDiffer(a: Answer, b: Answer): string {
  for (let i = 0; i < Math.min(a.hits.length, b.hits.length); i++) {
    const [x, y] = [a.hits[i], b.hits[i]] as [Answer['hits'][number], Answer['hits'][number]];
    if (!sameScore(x.score, y.score)) return `hit ${i} _score ${JSON.stringify(x.score)} / ${JSON.stringify(y.score)}`;
    const sx = JSON.stringify(x.sort);
    const sy = JSON.stringify(y.sort);
    if (sx !== sy && !(Array.isArray(x.sort) && Array.isArray(y.sort) && x.sort.every((v, j) => sameScore(v, (y.sort as unknown[])[j])))) return `hit ${i} sort ${sx} / ${sy}`;
    const hx = JSON.stringify(x.highlight);
    const hy = JSON.stringify(y.highlight);
    if (hx !== hy) return `hit ${i} highlight ${hx} / ${hy}`;
  }
  return '';
}

async function send(base: string, req: Request): Promise<Answer> {
  const res = await fetch(base + req.url, {
    method: req.method,
    body: req.body === undefined ? undefined : JSON.stringify(req.body),
    headers: req.body === undefined ? {} : { 'content-type': 'application/json' },
    signal: AbortSignal.timeout(10_000),
  });
  const json = (await res.json().catch(() => ({}))) as {
    hits?: { total?: unknown; hits?: { _id: string; _score?: unknown; sort?: unknown; highlight?: unknown }[] };
    error?: { type?: string; root_cause?: { type?: string; reason?: string }[] };
    count?: number;
    matched?: boolean;
    explanation?: { value?: number; description?: string };
    valid?: boolean;
    explanations?: { valid?: boolean; explanation?: string; error?: string }[];
  };
  const total = json.hits?.total;
  const root = json.error?.root_cause?.[0];
  // _count, _explain and _validate answer in their own shapes, read into the same fields.
  const hits = json.hits
    ? (json.hits.hits ?? []).map((h) => ({ score: h._score, sort: h.sort, highlight: h.highlight }))
    : json.explanation
      ? [{ score: json.explanation.value, sort: undefined, highlight: withoutUuids(JSON.stringify(json.explanation)) }]
      : (json.explanations ?? []).map((e) => ({ score: undefined, sort: e.valid, highlight: withoutUuids(e.explanation ?? e.error) }));
  return {
    status: res.status,
    total: typeof total === 'object' && total !== null ? (total as { value: number }).value : (total ?? json.count ?? json.matched ?? json.valid),
    ids: (json.hits?.hits ?? []).map((h) => h._id).join(','),
    error: json.error ? `${json.error.type}/${root?.type}` : '',
    reason: root?.reason ?? '',
    hits,
  };
}

/** Index UUIDs differ between the two nodes; messages that quote `[index/uuid]` compare without them. */
/** Index uuids, and the hash codes of score functions (they mix in an enum's identity hash, drawn anew in every JVM). */
function withoutUuids(text: string | undefined): string | undefined {
  return text?.replace(/\[([^\]/]+)\/[A-Za-z0-9_-]{22}\]/g, '[$1/…]').replace(JAVA_OBJECT, '$1@…');
}

const JAVA_OBJECT = /(org\.opensearch\.[\w.$]+)@[0-9a-f]{1,8}/g;

async function load(base: string, docs: number): Promise<void> {
  const dir = path.resolve(__dirname, '..', '..', '..', 'shared', 'corpus');
  if (!fs.existsSync(path.join(dir, 'debian-packages.ndjson.gz'))) throw new Error(`the Debian corpus is not in ${dir}`);
  const [bulk] = corpus.buildBodies(dir, 'debian-packages', { batch: docs, limit: docs }).bodies;
  const mapping = JSON.parse(fs.readFileSync(corpus.mappingPath('debian-packages'), 'utf8')) as Record<string, unknown>;
  mapping.settings = { number_of_shards: 2, number_of_replicas: 0 };
  await fetch(`${base}/${INDEX}`, { method: 'DELETE' });
  const created = await fetch(`${base}/${INDEX}`, { method: 'PUT', body: JSON.stringify(mapping), headers: { 'content-type': 'application/json' } });
  if (!created.ok) throw new Error(`${base}: creating ${INDEX} answered ${created.status} ${await created.text()}`);
  const res = await fetch(`${base}/${INDEX}/_bulk?refresh=true`, { method: 'POST', body: bulk, headers: { 'content-type': 'application/x-ndjson' } });
  const out = (await res.json()) as { errors?: boolean };
  if (!res.ok || out.errors) throw new Error(`${base}: loading ${INDEX} failed`);
}

async function main(): Promise<void> {
  const args = parseArgs(process.argv.slice(2));
  await Promise.all([load(args.opensearch, args.docs), load(args.quarry, args.docs)]);
  const rng = new Rng(args.seed);
  let differ = 0;
  const tally = new Map<string, number>();
  for (let i = 0; i < args.rounds; i++) {
    const req = generate(args.kinds[i % args.kinds.length] as string, rng);
    const os = await send(args.opensearch, req);
    if (os.status >= 500) continue;
    const q = await send(args.quarry, req);
    const same =
      os.status === q.status && os.total === q.total && os.ids === q.ids && os.error === q.error && (!args.messages || os.reason === q.reason);
    const detail = same ? hitsDiffer(os, q) : '';
    if (same && !detail) continue;
    differ++;
    const key = detail ? (detail.split(" ")[2] as string) : `${os.status}/${q.status}`;
    tally.set(key, (tally.get(key) ?? 0) + 1);
    const show = (a: Answer) => `${a.status} ${JSON.stringify(a.total)} [${a.ids}] ${a.error} ${a.reason.slice(0, 200)}`;
    const where = detail ? `  ${detail}\n` : `  opensearch ${show(os)}\n  quarry     ${show(q)}\n`;
    process.stdout.write(`${req.method} ${req.url} ${req.body === undefined ? '' : JSON.stringify(req.body)}\n${where}`);
  }
  process.stdout.write(`\n${differ} of ${args.rounds} requests differ ${JSON.stringify(Object.fromEntries(tally))}\n`);
  if (!args.keep) for (const base of [args.opensearch, args.quarry]) await fetch(`${base}/${INDEX}`, { method: 'DELETE' });
}

main().catch((e: unknown) => {
  process.stderr.write(`${(e as Error).message}\n`);
  process.exit(1);
});
