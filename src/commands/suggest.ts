/** "Did you mean": names close to what was typed, by edit distance or prefix. */
import { editDistance } from '../text/did-you-mean.ts';

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
    const dist = editDistance(t, n); // both already lower case
    if (t !== '' && n.startsWith(t)) scored.push({ name, score: Math.min(dist, 0.5) });
    else if (dist <= limit) scored.push({ name, score: dist });
  }
  return scored
    .sort((a, b) => a.score - b.score || (a.name < b.name ? -1 : a.name > b.name ? 1 : 0))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.name);
}
