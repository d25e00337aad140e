import { isMap, isScalar, isSeq, LineCounter, parseDocument, type Node, type Pair, type YAMLError } from 'yaml';

/**
 * The front matter of command files, recipes and templates: YAML between two `---` lines, read
 * with the `yaml` package (failsafe schema: every value is text or a list of text, as the schemas
 * expect). Two things stay as written, for the rule syntax: a flow list (`[Bash(a, b:*), Read]`) is
 * kept as its text, because YAML would split it at the comma inside the parentheses; the schema
 * splits it. Never throws: what cannot be read becomes a problem with its line, and the key it
 * belongs to is left out (its default is used).
 */
type FrontValue = string | string[];
export interface FrontEntry {
  key: string;
  value: FrontValue;
  line: number;
}
export interface FrontProblem {
  line: number;
  message: string;
}
interface FrontMatter {
  entries: FrontEntry[];
  body: string;
  problems: FrontProblem[];
}

const isFence = (line: string) => line.trimEnd() === '---';

/** YAML's message, or the wording the hand-written reader used for the common slips. */
function problemText(e: YAMLError, lineText: string): string {
  if (e.code === 'MULTILINE_IMPLICIT_KEY' || (e.code === 'MISSING_CHAR' && /":"|colon|map values/i.test(e.message))) {
    return `"${lineText.trim()}" is not "key: value"`;
  }
  if (e.code === 'MISSING_CHAR' && /quote/i.test(e.message)) {
    const key = /^([\w.-]+)[ \t]*:/.exec(lineText)?.[1];
    return `${key ? `${key}: ` : ''}the quoted value has no closing ${/single/i.test(e.message) ? "'" : '"'}`;
  }
  if (e.code === 'BLOCK_AS_IMPLICIT_KEY') return `"${lineText.trim()}": a value with ": " in it needs quotes ("…")`;
  if (e.code === 'TAB_AS_INDENT') return 'a tab is used for indentation; YAML needs spaces';
  return e.message.split('\n')[0].replace(/ at line \d+, column \d+:?$/, '');
}

export function parseFrontMatter(source: string): FrontMatter {
  const text = source.replace(/^\uFEFF/, '');
  const lines = text.split(/\r?\n/);
  if (!isFence(lines[0] ?? '')) return { entries: [], body: text, problems: [] };
  const end = lines.findIndex((l, i) => i > 0 && isFence(l));
  if (end < 0) {
    return {
      entries: [],
      body: text,
      problems: [
        { line: 1, message: 'the front matter opened by "---" is never closed by a "---" line; the whole file is used as the prompt' },
      ],
    };
  }
  const body = lines.slice(end + 1).join('\n');
  const yamlText = lines.slice(1, end).join('\n');
  const counter = new LineCounter();
  const doc = parseDocument(yamlText, { lineCounter: counter, schema: 'failsafe', uniqueKeys: false, prettyErrors: false });
  // Lines in the file: the YAML starts on line 2, after the opening fence.
  const lineAt = (offset: number) => counter.linePos(offset).line + 1;
  const problems: FrontProblem[] = [];
  const bad: number[] = [];
  for (const e of doc.errors) {
    const line = lineAt(e.pos[0]);
    bad.push(e.pos[0]);
    problems.push({ line, message: problemText(e, lines[line - 1] ?? '') });
  }
  const entries: FrontEntry[] = [];
  if (doc.contents === null) return { entries, body, problems };
  if (!isMap(doc.contents)) {
    const line = lineAt(doc.contents.range?.[0] ?? 0);
    if (!bad.length)
      problems.push({
        line,
        message: isScalar(doc.contents)
          ? `"${(lines[line - 1] ?? '').trim()}" is not "key: value"`
          : 'the front matter must be "key: value" lines',
      });
    return { entries, body, problems };
  }
  const seen = new Map<string, number>();
  for (const pair of doc.contents.items as Array<Pair<Node, Node | null>>) {
    const start = pair.key?.range?.[0] ?? 0;
    const stop = pair.value?.range?.[1] ?? pair.key?.range?.[1] ?? start;
    if (bad.some((o) => o >= start && o <= stop)) continue; // already reported
    const line = lineAt(start);
    if (!isScalar(pair.key)) {
      problems.push({ line, message: 'a key must be a plain word' });
      continue;
    }
    const key = String(pair.key.value);
    const value = readValue(key, pair.value, yamlText, line, problems);
    if (value === undefined) continue; // `key:` with nothing is YAML's null: as if absent
    const before = seen.get(key);
    if (before !== undefined) problems.push({ line, message: `"${key}" is also set on line ${before}; this later one is used` });
    seen.set(key, line);
    const at = entries.findIndex((e) => e.key === key);
    if (at >= 0) entries.splice(at, 1);
    entries.push({ key, value, line });
  }
  return { entries, body, problems };
}

/** A value as text or a list of text; undefined (with a problem where it is a mistake) otherwise. */
function readValue(key: string, node: Node | null, source: string, line: number, problems: FrontProblem[]): FrontValue | undefined {
  if (node === null) return undefined;
  if (isScalar(node)) {
    // A plain value stops at " #" (a YAML comment): say so rather than drop the rest silently.
    if (node.type === 'PLAIN' && node.comment !== undefined && node.comment !== '') {
      problems.push({ line, message: `${key}: " #${node.comment}" is a YAML comment and is left out; put the value in quotes to keep it` });
    }
    const s = String(node.value);
    const v = node.type === 'BLOCK_LITERAL' || node.type === 'BLOCK_FOLDED' ? s.replace(/\n+$/, '') : s;
    return v === '' ? undefined : v;
  }
  if (isSeq(node)) {
    if (node.flow && node.range) return source.slice(node.range[0], node.range[1]).trim();
    const items: string[] = [];
    for (const item of node.items) {
      if (isScalar(item)) {
        if (String(item.value) !== '') items.push(String(item.value));
      } else problems.push({ line, message: `${key}: each list item must be text` });
    }
    return items.length ? items : undefined;
  }
  problems.push({ line, message: `${key}: a nested "key: value" block is not a value here (write text or a list)` });
  return undefined;
}
