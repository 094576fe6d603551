// `action.auto_create_index`: `true`, `false`, or a comma-separated list of index patterns, each
// optionally prefixed with `+` (allow) or `-` (forbid). The first pattern that matches decides;
// with a list and no match, the index is not created. The engine decides (and words refusals);
// here the setting is only validated at start-up.
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
