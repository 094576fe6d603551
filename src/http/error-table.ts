// The TS layer's one table of errors, with OpenSearch's wording and statuses.
import { OpenSearchError } from './errors';

function levenshteinSimilarity(a: string, b: string): number {
  // Lucene's LevenshteinDistance: 1 - distance / max(length).
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return m === n ? 1 : 0;
  let prev = Array.from({ length: n + 1 }, (_, j) => j);
  for (let i = 1; i <= m; i++) {
    const cur = [i];
    for (let j = 1; j <= n; j++) {
      const cost = a[i - 1] === b[j - 1] ? 0 : 1;
      cur[j] = Math.min((cur[j - 1] ?? 0) + 1, (prev[j] ?? 0) + 1, (prev[j - 1] ?? 0) + cost);
    }
    prev = cur;
  }
  return 1 - (prev[n] ?? 0) / Math.max(m, n);
}

/** `request [/x] contains unrecognized parameter: [a] -> did you mean [b]?` */
export function unrecognizedParameters(path: string, names: readonly string[], candidates: readonly string[]): OpenSearchError {
  const sorted = [...names].sort();
  const parts = sorted.map((name) => {
    const scored = candidates
      .map((c) => ({ c, s: levenshteinSimilarity(name, c) }))
      .filter((x) => x.s > 0.7)
      .sort((x, y) => y.s - x.s || x.c.localeCompare(y.c))
      .map((x) => x.c);
    let text = `[${name}]`;
    if (scored.length === 1) text += ` -> did you mean [${scored[0]}]?`;
    else if (scored.length > 1) text += ` -> did you mean any of [${scored.join(', ')}]?`;
    return text;
  });
  const noun = names.length === 1 ? 'parameter' : 'parameters';
  return new OpenSearchError(400, 'illegal_argument_exception', `request [${path}] contains unrecognized ${noun}: ${parts.join(', ')}`);
}

export function contentTooLong(size: number | undefined, limit: number): OpenSearchError {
  const shown = size === undefined ? '' : ` [${size}]`;
  return new OpenSearchError(413, 'content_too_long_exception', `request content length${shown} exceeds the limit of [${limit}] bytes (http.max_content_length)`);
}

export function bodyRequired(): OpenSearchError {
  return new OpenSearchError(400, 'parse_exception', 'request body is required');
}

export function illegalArgument(reason: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', reason);
}

export function noHandlerFound(method: string, uri: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', `no handler found for uri [${uri}] and method [${method}]`, {}, undefined, true);
}

export function methodNotAllowed(method: string, uri: string, allowed: readonly string[]): OpenSearchError {
  return new OpenSearchError(
    405,
    'illegal_argument_exception',
    `Incorrect HTTP method for uri [${uri}] and method [${method}], allowed: [${[...allowed].sort().join(', ')}]`,
    {},
    undefined,
    true,
  );
}

export function badBoolean(value: string): OpenSearchError {
  return new OpenSearchError(400, 'illegal_argument_exception', `Failed to parse value [${value}] as only [true] or [false] are allowed.`);
}

export function unsupportedContentType(contentType: string): OpenSearchError {
  return new OpenSearchError(406, 'illegal_argument_exception', `Content-Type header [${contentType}] is not supported`, {}, undefined, true);
}
