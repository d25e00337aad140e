/**
 * Shell-style splitting of a command's arguments into words, for `$1`…`$9`: whitespace separates,
 * "double" and 'single' quotes group (and are removed), a backslash escapes the next character
 * outside single quotes. An unterminated quote runs to the end of the text. Never throws.
 */
export function splitWords(text: string): string[] {
  const words: string[] = [];
  let cur = '';
  let inWord = false;
  let quote: '"' | "'" | undefined;
  for (let i = 0; i < text.length; i++) {
    const ch = text[i];
    if (quote === "'") {
      if (ch === "'") quote = undefined;
      else cur += ch;
      continue;
    }
    if (quote === '"') {
      if (ch === '"') quote = undefined;
      else if (ch === '\\' && (text[i + 1] === '"' || text[i + 1] === '\\')) cur += text[++i];
      else cur += ch;
      continue;
    }
    if (/\s/.test(ch)) {
      if (inWord) words.push(cur);
      cur = '';
      inWord = false;
      continue;
    }
    inWord = true;
    if (ch === '"' || ch === "'") quote = ch;
    else if (ch === '\\' && i + 1 < text.length) cur += text[++i];
    else cur += ch;
  }
  if (inWord) words.push(cur);
  return words;
}

/** Splits a list of rules on commas outside parentheses: `Bash(a, b), Read` → two rules. */
export function splitRuleList(text: string): string[] {
  const out: string[] = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if (ch === ',' && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}
