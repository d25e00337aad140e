import type { Node } from 'web-tree-sitter';

/** One shell word as the shell will see it, as far as it is known before the command runs. */
export interface Word {
  /** The unquoted value (`"a b"` → `a b`, `\rm` → `rm`); the source text when `dynamic`. */
  value: string;
  /** The source text. */
  raw: string;
  /** Part of it is only known at run time: `$x`, `$(…)`, `` `…` ``, `$((…))`, `<(…)`, a placeholder. */
  dynamic: boolean;
  /** It has an unquoted glob or brace pattern that the shell expands. */
  glob: boolean;
}

/** `\x` → `x` outside quotes; backslash-newline disappears. */
function unescapeBare(s: string): string {
  return s.replace(/\\(\n|[\s\S])/g, (_, c: string) => (c === '\n' ? '' : c));
}

/** Inside double quotes a backslash only escapes `$`, `` ` ``, `"`, `\` and newline. */
function unescapeDouble(s: string): string {
  return s.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

/** An unescaped `*`, `?` or `[…]`, or a `{a,b}` / `{1..3}` brace pattern, in unquoted text. */
function bareGlob(s: string): boolean {
  const plain = s.replace(/\\[\s\S]/g, '__');
  return /[*?]/.test(plain) || /\[.+\]/.test(plain) || /\{[^{}]*(,|\.\.)[^{}]*\}/.test(plain);
}

/** Evaluates an argument, name or redirection target node. Never throws. */
export function wordOf(node: Node): Word {
  const raw = node.text;
  switch (node.type) {
    case 'word':
      return { value: unescapeBare(raw), raw, dynamic: false, glob: bareGlob(raw) };
    case 'number':
    case 'variable_name':
      return { value: raw, raw, dynamic: false, glob: false };
    case 'raw_string':
      return { value: raw.slice(1, -1), raw, dynamic: false, glob: false };
    case 'string': {
      let value = '';
      for (const c of node.children) {
        if (c.type === '"') continue;
        if (c.type === 'string_content') value += unescapeDouble(c.text);
        else return { value: raw, raw, dynamic: true, glob: false };
      }
      return { value, raw, dynamic: false, glob: false };
    }
    case 'concatenation': {
      let value = '';
      let dynamic = false;
      let glob = false;
      let bare = '';
      for (const c of node.children) {
        const w = wordOf(c);
        value += w.value;
        dynamic ||= w.dynamic;
        glob ||= w.glob;
        // Brace patterns span parts (`{a,b}` is three words to the grammar): look at unquoted parts together.
        bare += c.type === 'word' ? c.text : c.type === 'brace_expression' ? '{,}' : '_';
      }
      return { value: dynamic ? raw : value, raw, dynamic, glob: glob || bareGlob(bare) };
    }
    case 'brace_expression':
      return { value: raw, raw, dynamic: false, glob: true };
    default:
      // Expansions, substitutions, ANSI-C and translated strings, and anything unforeseen.
      return { value: raw, raw, dynamic: true, glob: false };
  }
}

/** A word made by the splitter itself (a wrapper's option value, a script's text). */
export function literalWord(value: string): Word {
  return { value, raw: value, dynamic: false, glob: false };
}

/** The base name a rule uses for a program: `/usr/bin/rm` → `rm`. */
export function baseName(program: string): string {
  return program.slice(program.lastIndexOf('/') + 1);
}
