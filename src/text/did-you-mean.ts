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

/**
 * The candidate `word` was most likely meant to be, or undefined when none is close: same letters
 * in another case, or a few typos (one edit, or up to a third of a longer word).
 */
export function closest(word: string, candidates: Iterable<string>): string | undefined {
  let best: string | undefined;
  let bestScore = Infinity;
  const w = word.toLowerCase();
  for (const c of candidates) {
    const score = c.toLowerCase() === w ? 0 : editDistance(w, c.toLowerCase());
    if (score < bestScore) { best = c; bestScore = score; }
  }
  return best !== undefined && bestScore <= Math.max(1, Math.floor(word.length / 3)) ? best : undefined;
}
