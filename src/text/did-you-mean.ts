import { extname } from 'node:path';

/**
 * "Did you mean": the one place that says which names are close to what was typed — settings keys
 * and rule tool names (`closest`), slash commands (`suggestNames`), file names in a directory
 * (`similarNames`). Each caller words its own message.
 */

/**
 * Optimal string alignment distance (Levenshtein plus a swap of two neighbours), case-sensitive:
 * the one edit distance of the project ("did you mean" for settings keys, tools, commands, paths).
 * A swap counts 1 because it is the commonest typo (`dney` for `deny`); fastest-levenshtein counts 2.
 */
export function editDistance(a: string, b: string): number {
  const d: number[][] = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) d[0][j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      d[i][j] = Math.min(d[i - 1][j] + 1, d[i][j - 1] + 1, d[i - 1][j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) d[i][j] = Math.min(d[i][j], d[i - 2][j - 2] + 1);
    }
  }
  return d[a.length][b.length];
}

/** Edits a typed word may be off by: a third of its length, at least 1. */
const typos = (word: string) => Math.max(1, Math.floor(word.length / 3));

const byName = (a: string, b: string) => (a < b ? -1 : a > b ? 1 : 0);

/**
 * The candidate `word` was most likely meant to be, or undefined when none is close: same letters
 * in another case, or a few typos (one edit, or up to a third of a longer word). Ties: the first.
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const score = c.toLowerCase() === w ? 0 : editDistance(w, c.toLowerCase());
    if (score < bestScore) {
      best = c;
      bestScore = score;
    }
  }
  return best !== undefined && bestScore <= typos(word) ? best : undefined;
}

/** At most this many names are suggested. */
const MAX_SUGGESTIONS = 5;

/**
 * Candidates that start with the typed name, or are within a third of its length in edits (at
 * least 1, at most 3), ignoring case; closest first, then alphabetical; at most MAX_SUGGESTIONS.
 */
export function suggestNames(typed: string, candidates: Iterable<string>): string[] {
  const t = typed.toLowerCase();
  const limit = Math.min(3, typos(typed));
  const scored: Array<{ name: string; score: number }> = [];
  for (const name of new Set(candidates)) {
    const n = name.toLowerCase();
    const dist = editDistance(t, n); // both already lower case
    if (t !== '' && n.startsWith(t)) scored.push({ name, score: Math.min(dist, 0.5) });
    else if (dist <= limit) scored.push({ name, score: dist });
  }
  return scored
    .sort((a, b) => a.score - b.score || byName(a.name, b.name))
    .slice(0, MAX_SUGGESTIONS)
    .map((s) => s.name);
}

/** Edit distance, skipped (99) when the lengths alone differ by more than 3. */
const distance = (a: string, b: string) => (Math.abs(a.length - b.length) > 3 ? 99 : editDistance(a, b));

/** A file name without its extension, lower case. */
const stem = (name: string) => name.slice(0, name.length - extname(name).length).toLowerCase();

/**
 * Of the file names `names` (one directory's), up to MAX_SUGGESTIONS that look like `wanted`: the
 * same in another case, another extension, a typo or two, or one name containing the other.
 */
export function similarNames(wanted: string, names: Iterable<string>): string[] {
  const want = wanted.toLowerCase();
  const scored: Array<[number, string]> = [];
  for (const name of names) {
    const lower = name.toLowerCase();
    let score: number;
    if (lower === want) score = 0;
    else if (stem(name) === stem(want) && stem(want) !== '') score = 1;
    else {
      const d = distance(lower, want);
      if (d <= Math.max(2, Math.floor(want.length / 5))) score = 1 + d;
      else if (want.length >= 3 && (lower.includes(stem(want)) || want.includes(stem(name))) && stem(name).length >= 3) score = 10;
      else continue;
    }
    scored.push([score, name]);
  }
  scored.sort((a, b) => a[0] - b[0] || a[1].localeCompare(b[1]));
  return scored.slice(0, MAX_SUGGESTIONS).map(([, name]) => name);
}
