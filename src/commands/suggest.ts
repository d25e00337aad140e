/** "Did you mean": names close to what was typed, by edit distance or prefix. */

/** Optimal string alignment distance (Levenshtein plus adjacent swaps), case-insensitive. */
export function editDistance(a: string, b: string): number {
  const s = a.toLowerCase();
  const t = b.toLowerCase();
  const d: number[][] = Array.from({ length: s.length + 1 }, (_, i) => [i, ...Array<number>(t.length).fill(0)]);
  for (let j = 1; j <= t.length; j++) d[0][j] = j;
  for (let i = 1; i <= s.length; i++) {
    for (let j = 1; j <= t.length; j++) {
      const cost = s[i - 1] === t[j - 1] ? 0 : 1;
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + cost);
      if (i > 1 && j > 1 && s[i - 1] === t[j - 2] && s[i - 2] === t[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[s.length][t.length];
}

export const MAX_SUGGESTIONS = 5;

/**
 * Candidates that start with the typed name, or are within a third of its length in edits (at
 * least 1, at most 3); closest first, then alphabetical; at most MAX_SUGGESTIONS.
 */
export function suggestNames(typed: string, candidates: Iterable<string>): string[] {
  const t = typed.toLowerCase();
  const limit = Math.min(3, Math.max(1, Math.floor(typed.length / 3)));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const n = name.toLowerCase();
    const dist = editDistance(t, n);
    if (t !== '' && n.startsWith(t)) scored.push({ name, score: Math.min(dist, 0.5) });
    else if (dist <= limit) scored.push({ name, score: dist });
  }
  return scored
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.name);
}
