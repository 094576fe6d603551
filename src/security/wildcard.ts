// Patterns as the security plugin's WildcardMatcher reads them: `*` (any run), `?` (one
// character), or a regular expression between slashes (`/logs-\d+/`). Compiled once per pattern.
const cache = new Map<string, RegExp>();

function compile(pattern: string): RegExp {
  let re = cache.get(pattern);
  if (re !== undefined) return re;
  if (pattern.length > 2 && pattern.startsWith('/') && pattern.endsWith('/')) {
    re = new RegExp(`^(?:${pattern.slice(1, -1)})$`);
  } else {
    const body = pattern.replace(/[.+^${}()|[\]\\]/g, '\\$&').replace(/\*/g, '.*').replace(/\?/g, '.');
    re = new RegExp(`^${body}$`, 's');
  }
  cache.set(pattern, re);
  return re;
}

export function matches(pattern: string, value: string): boolean {
  if (pattern === '*') return true;
  if (!pattern.includes('*') && !pattern.includes('?') && !pattern.startsWith('/')) return pattern === value;
  return compile(pattern).test(value);
}

export function matchesAny(patterns: Iterable<string>, value: string): boolean {
  for (const p of patterns) if (matches(p, value)) return true;
  return false;
}
