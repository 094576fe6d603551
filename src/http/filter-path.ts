// filter_path: comma-separated paths with `*` (one level, within a name), `**` (any depth) and
// `-` exclusions, applied to parsed JSON as OpenSearch's filtering generator does.
import type { JsonValue } from './json';

type Segments = readonly string[];

function segMatch(pattern: string, name: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*')) return pattern === name;
  const re = new RegExp(`^${pattern.split('*').map((p) => p.replace(/[.+?^${}()|[\]\\]/g, '\\$&')).join('.*')}$`);
  return re.test(name);
}

/** Remaining paths after descending into `name`; `true` when some path ends here. */
function descend(paths: readonly Segments[], name: string): { matched: boolean; rest: Segments[] } {
  let matched = false;
  const rest: Segments[] = [];
  for (const p of paths) {
    const head = p[0];
    if (head === undefined) continue;
    if (head === '**') {
      // `**` matches zero or more levels.
      const after = p.slice(1);
      if (after.length === 0) {
        matched = true;
      } else {
        const deeper = descend([after], name);
        if (deeper.matched) matched = true;
        rest.push(...deeper.rest);
      }
      rest.push(p);
      continue;
    }
    if (segMatch(head, name)) {
      if (p.length === 1) matched = true;
      else rest.push(p.slice(1));
    }
  }
  return { matched, rest };
}

function include(value: JsonValue, paths: readonly Segments[]): JsonValue | undefined {
  if (Array.isArray(value)) {
    const out = value.map((v) => include(v, paths)).filter((v): v is JsonValue => v !== undefined);
    return out.length > 0 ? out : undefined;
  }
  if (value === null || typeof value !== 'object') return undefined;
  const out: Record<string, JsonValue> = {};
  let any = false;
  for (const [k, v] of Object.entries(value)) {
    const { matched, rest } = descend(paths, k);
    if (matched) {
      out[k] = v;
      any = true;
    } else if (rest.length > 0) {
      const sub = include(v, rest);
      if (sub !== undefined) {
        out[k] = sub;
        any = true;
      }
    }
  }
  return any ? out : undefined;
}

function exclude(value: JsonValue, paths: readonly Segments[]): JsonValue | undefined {
  if (Array.isArray(value)) return value.map((v) => exclude(v, paths) ?? {});
  if (value === null || typeof value !== 'object') return value;
  const out: Record<string, JsonValue> = {};
  for (const [k, v] of Object.entries(value)) {
    const { matched, rest } = descend(paths, k);
    if (matched) continue;
    if (rest.length > 0 && v !== null && typeof v === 'object') {
      const sub = exclude(v, rest);
      if (sub !== undefined && !(typeof sub === 'object' && sub !== null && !Array.isArray(sub) && Object.keys(sub).length === 0)) {
        out[k] = sub;
      }
    } else {
      out[k] = v;
    }
  }
  return out;
}

export function filterPath(value: JsonValue, filter: string): JsonValue {
  const all = filter.split(',').map((p) => p.trim()).filter((p) => p.length > 0);
  const inc = all.filter((p) => !p.startsWith('-')).map((p) => p.split('.'));
  const exc = all.filter((p) => p.startsWith('-')).map((p) => p.slice(1).split('.'));
  let out: JsonValue | undefined = value;
  if (inc.length > 0) out = include(value, inc);
  if (out !== undefined && exc.length > 0) out = exclude(out, exc);
  return out ?? {};
}
