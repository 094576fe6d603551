import type { JsonArray, JsonNode, JsonObject } from './raw-json';

/**
 * The `filter_path` response filter, with OpenSearch's semantics:
 *
 * - a comma-separated list (tokens trimmed, empty ones ignored); a leading `-` makes an exclusion;
 * - a path is split on `.` (a `\.` is a literal dot); in a segment `*` matches any run of
 *   characters, a segment that is exactly `**` matches any number of levels (zero included);
 * - arrays are transparent: their elements are filtered with the array's own path;
 * - an object or array reached only through a partial match is written only if something inside it
 *   survives (so objects emptied by filtering disappear);
 * - inclusions are applied, then exclusions; the root object always stays (`{}` when everything is
 *   filtered out). With exclusions only, everything not excluded is kept.
 */
export interface FilterPath {
  readonly includes: readonly PathMatcher[];
  readonly excludes: readonly PathMatcher[];
}

/** One compiled path: its segments, each a literal, a glob (`*` inside) or `*` / `**`. */
export interface PathMatcher {
  readonly segments: readonly Segment[];
}

type Segment = { readonly kind: 'any' } | { readonly kind: 'deep' } | { readonly kind: 'glob'; readonly re: RegExp } | { readonly kind: 'exact'; readonly name: string };

/** A position inside a path: `index` segments of `path` already consumed. */
interface State {
  readonly path: PathMatcher;
  readonly index: number;
}

const MATCHED = Symbol('matched');
type Evaluation = typeof MATCHED | readonly State[] | null;

export function compileFilterPath(value: string): FilterPath | undefined {
  const includes: PathMatcher[] = [];
  const excludes: PathMatcher[] = [];
  const seen = new Set<string>();
  for (const raw of value.split(',')) {
    const token = raw.trim();
    if (token.length === 0 || seen.has(token)) continue;
    seen.add(token);
    if (token.startsWith('-')) {
      const path = token.slice(1).trim();
      if (path.length > 0) excludes.push(compilePath(path));
    } else {
      includes.push(compilePath(token));
    }
  }
  if (includes.length === 0 && excludes.length === 0) return undefined;
  return { includes, excludes };
}

function compilePath(path: string): PathMatcher {
  const segments: Segment[] = [];
  // Split on dots not preceded by a backslash; `\.` stands for a literal dot.
  for (const part of path.split(/(?<!\\)\./)) {
    const seg = part.replace(/\\\./g, '.');
    if (seg === '*') segments.push({ kind: 'any' });
    else if (seg === '**') segments.push({ kind: 'deep' });
    else if (seg.includes('*')) segments.push({ kind: 'glob', re: globToRegExp(seg) });
    else segments.push({ kind: 'exact', name: seg });
  }
  return { segments };
}

function globToRegExp(glob: string): RegExp {
  const body = glob
    .split('*')
    .map((s) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&'))
    .join('.*');
  return new RegExp(`^${body}$`, 's');
}

function segmentMatches(seg: Segment, name: string): boolean {
  switch (seg.kind) {
    case 'any':
    case 'deep':
      return true;
    case 'exact':
      return seg.name === name;
    case 'glob':
      return seg.re.test(name);
  }
}

/** Which paths a property named `name` leads to, from the given states. */
function evaluate(states: readonly State[], name: string): Evaluation {
  let next: State[] | null = null;
  for (const state of states) {
    const seg = state.path.segments[state.index];
    if (seg === undefined || !segmentMatches(seg, name)) continue;
    const after = state.index + 1;
    if (after === state.path.segments.length) return MATCHED;
    next ??= [];
    // `**` may also swallow this level and keep matching deeper ones.
    if (seg.kind === 'deep') next.push(state);
    next.push({ path: state.path, index: after });
  }
  return next;
}

type Filtered = JsonNode | undefined;

function filterContainer(node: JsonNode, states: readonly State[], inclusive: boolean): Filtered {
  switch (node.kind) {
    case 'scalar':
      // A scalar reached through a partial match: kept only by exclusion filters.
      return inclusive ? undefined : node;
    case 'array': {
      const items: JsonNode[] = [];
      for (const item of node.items) {
        const kept = filterContainer(item, states, inclusive);
        if (kept !== undefined) items.push(kept);
      }
      return items.length > 0 ? ({ kind: 'array', items } satisfies JsonArray) : undefined;
    }
    case 'object': {
      const obj = filterObject(node, states, inclusive);
      return obj.keys.length > 0 ? obj : undefined;
    }
  }
}

function filterObject(node: JsonObject, states: readonly State[], inclusive: boolean): JsonObject {
  const keys: string[] = [];
  const values: JsonNode[] = [];
  node.keys.forEach((key, i) => {
    const value = node.values[i] as JsonNode;
    const ev = evaluate(states, key);
    let kept: Filtered;
    if (ev === MATCHED) kept = inclusive ? value : undefined;
    else if (ev === null) kept = inclusive ? undefined : value;
    else kept = filterContainer(value, ev, inclusive);
    if (kept !== undefined) {
      keys.push(key);
      values.push(kept);
    }
  });
  return { kind: 'object', keys, values };
}

function initial(paths: readonly PathMatcher[]): State[] {
  return paths.map((path) => ({ path, index: 0 }));
}

/**
 * Applies a compiled filter to a document: inclusions first, then exclusions, as OpenSearch
 * stacks its two filtering generators. A root object is always kept (`{}` when emptied); a root
 * array emptied by filtering becomes `[]`.
 */
export function applyFilterPath(root: JsonNode, filter: FilterPath): JsonNode {
  let node = root;
  if (filter.includes.length > 0) node = filterRoot(node, initial(filter.includes), true);
  if (filter.excludes.length > 0) node = filterRoot(node, initial(filter.excludes), false);
  return node;
}

function filterRoot(node: JsonNode, states: readonly State[], inclusive: boolean): JsonNode {
  if (node.kind === 'object') return filterObject(node, states, inclusive);
  if (node.kind === 'array') return filterContainer(node, states, inclusive) ?? { kind: 'array', items: [] };
  return node;
}
