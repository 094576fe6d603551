/**
 * Lucene's LevenshteinDistance similarity, which OpenSearch uses for "did you mean" suggestions:
 * `1 - editDistance / max(length)`, 1 for two empty strings and 0 when only one is empty.
 * Lengths and edits count UTF-16 code units, as Java's does.
 */
export function levenshteinSimilarity(a: string, b: string): number {
  const m = a.length;
  const n = b.length;
  if (m === 0 || n === 0) return m === n ? 1 : 0;
  let prev = new Array<number>(n + 1);
  let cur = new Array<number>(n + 1);
  for (let j = 0; j <= n; j++) prev[j] = j;
  for (let i = 1; i <= m; i++) {
    cur[0] = i;
    const ca = a.charCodeAt(i - 1);
    for (let j = 1; j <= n; j++) {
      const cost = ca === b.charCodeAt(j - 1) ? 0 : 1;
      cur[j] = Math.min((cur[j - 1] as number) + 1, (prev[j] as number) + 1, (prev[j - 1] as number) + cost);
    }
    [prev, cur] = [cur, prev];
  }
  return 1 - (prev[n] as number) / Math.max(m, n);
}

/**
 * Setting-name suggestions as OpenSearch's settings validation makes them: similarity above 0.7,
 * best first, ties by name.
 */
export function suggest(name: string, candidates: Iterable<string>, threshold: number): string[] {
  const scored: Array<{ c: string; s: number }> = [];
  for (const c of candidates) {
    const s = levenshteinSimilarity(name, c);
    if (s > threshold) scored.push({ c, s });
  }
  scored.sort((x, y) => y.s - x.s || (x.c < y.c ? -1 : x.c > y.c ? 1 : 0));
  return scored.map((x) => x.c);
}
