// `action.auto_create_index`: `true`, `false`, or a comma-separated list of index patterns, each
// optionally prefixed with `+` (allow) or `-` (forbid). The first pattern that matches decides;
// with a list and no match, the index is not created.
import { OpenSearchError } from '../http/errors';

export interface AutoCreateIndex {
  /** The setting as written (OpenSearch quotes it in its refusals). */
  readonly value: string;
  /** False only for `false`; a pattern list is "enabled, with rules". */
  readonly enabled: boolean;
  /** Undefined for a plain `true`/`false`. */
  readonly patterns: ReadonlyArray<{ readonly pattern: string; readonly allow: boolean }> | undefined;
}

const KEY = 'action.auto_create_index';

function cannotParse(value: string, detail: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', `Can't parse [${value}] for setting [${KEY}] ${detail}`);
}

export function parseAutoCreateIndex(value: string): AutoCreateIndex {
  if (value === 'true') return { value, enabled: true, patterns: undefined };
  if (value === 'false') return { value, enabled: false, patterns: undefined };
  const patterns: Array<{ pattern: string; allow: boolean }> = [];
  for (const raw of value.split(',')) {
    const p = raw.trim();
    if (p.length === 0) throw cannotParse(value, 'must be either [true, false, or a comma separated list of index patterns]');
    if (p.startsWith('-') || p.startsWith('+')) {
      if (p.length === 1) throw cannotParse(value, `must contain an index name after [${p}]`);
      patterns.push({ pattern: p.slice(1), allow: p.startsWith('+') });
    } else {
      patterns.push({ pattern: p, allow: true });
    }
  }
  return { value, enabled: true, patterns };
}

/** OpenSearch's Regex.simpleMatch: `*` matches any run of characters. */
export function simpleMatch(pattern: string, name: string): boolean {
  const parts = pattern.split('*');
  if (parts.length === 1) return pattern === name;
  const head = parts[0] ?? '';
  const tail = parts[parts.length - 1] ?? '';
  if (!name.startsWith(head) || name.length < head.length + tail.length || !name.endsWith(tail)) return false;
  let pos = head.length;
  const end = name.length - tail.length;
  for (let i = 1; i < parts.length - 1; i++) {
    const part = parts[i] ?? '';
    const at = name.indexOf(part, pos);
    if (at < 0 || at + part.length > end) return false;
    pos = at + part.length;
  }
  return true;
}

/**
 * Why automatic creation of `index` is refused, as OpenSearch words it (an
 * index_not_found_exception), or undefined when it is allowed.
 */
export function autoCreateRefusal(setting: AutoCreateIndex, index: string): OpenSearchError | undefined {
  const refuse = (why: string): OpenSearchError =>
    new OpenSearchError(404, 'index_not_found_exception', `no such index [${index}] and ${why}`, { index, index_uuid: '_na_' });
  if (!setting.enabled) return refuse(`[${KEY}] is [false]`);
  if (setting.patterns === undefined) return undefined;
  for (const { pattern, allow } of setting.patterns) {
    if (simpleMatch(pattern, index)) {
      return allow ? undefined : refuse(`[${KEY}] contains [-${pattern}] which forbids automatic creation of the index`);
    }
  }
  return refuse(`[${KEY}] ([${setting.value}]) doesn't match`);
}

/** Whether `index` may be created by a write to it. */
export function autoCreateAllowed(config: { readonly action: { readonly autoCreate: AutoCreateIndex } }, index: string): boolean {
  return autoCreateRefusal(config.action.autoCreate, index) === undefined;
}
