/** At most this many words from one brace pattern; past it the word counts as unknown. */
const BRACE_LIMIT = 256;

function sequence(inner: string): string[] | undefined {
  const m = /^(-?\d+|[a-zA-Z])\.\.(-?\d+|[a-zA-Z])(?:\.\.(-?\d+))?$/.exec(inner);
  if (!m) return undefined;
  const num = /^-?\d+$/.test(m[1]) && /^-?\d+$/.test(m[2]);
  if (!num && (/\d/.test(m[1]) || /\d/.test(m[2]))) return undefined;
  const [a, b] = num ? [Number(m[1]), Number(m[2])] : [m[1].charCodeAt(0), m[2].charCodeAt(0)];
  const step = Math.max(1, Math.abs(Number(m[3] ?? 1)));
  const out: string[] = [];
  for (let i = a; a <= b ? i <= b : i >= b; i += a <= b ? step : -step) {
    out.push(num ? String(i) : String.fromCharCode(i));
    if (out.length > BRACE_LIMIT) break;
  }
  return out;
}

/**
 * Bash brace expansion of one unquoted word (`a{b,c}d` → `abd acd`, `{1..3}`, nested): what the
 * shell turns the word into before globbing. A `{` with no comma or sequence inside stays.
 * Returns undefined past BRACE_LIMIT words. Pure.
 */
export function expandBraces(word: string): string[] | undefined {
  for (let i = 0; i < word.length; i++) {
    if (word[i] === '\\') {
      i++;
      continue;
    }
    if (word[i] !== '{' || word[i + 1] === '}') continue;
    let depth = 0;
    let j = i;
    const commas: number[] = [];
    for (; j < word.length; j++) {
      const ch = word[j];
      if (ch === '\\') {
        j++;
        continue;
      }
      if (ch === '{') depth++;
      else if (ch === '}' && --depth === 0) break;
      else if (ch === ',' && depth === 1) commas.push(j);
    }
    if (j >= word.length) return [word];
    const inner = word.slice(i + 1, j);
    let alts: string[] | undefined;
    if (commas.length) {
      alts = [];
      let from = i + 1;
      for (const c of [...commas, j]) {
        alts.push(word.slice(from, c));
        from = c + 1;
      }
    } else alts = sequence(inner);
    if (!alts) continue;
    const out: string[] = [];
    for (const a of alts) {
      const more = expandBraces(word.slice(0, i) + a + word.slice(j + 1));
      if (!more) return undefined;
      out.push(...more);
      if (out.length > BRACE_LIMIT) return undefined;
    }
    return out;
  }
  return [word];
}
