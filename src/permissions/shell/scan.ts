import type { Node } from 'web-tree-sitter';

/**
 * Checks on a parsed script that do not follow from walking the tree: places where the grammar
 * and bash could disagree. Each finding is a reason to ask.
 */

const snippet = (s: string) => JSON.stringify(s.length > 40 ? `${s.slice(0, 37)}…` : s);

/** ERROR and MISSING nodes: the grammar could not read the script as bash. */
function syntaxErrors(root: Node): string[] {
  if (!root.hasError) return [];
  const found: string[] = [];
  const visit = (n: Node) => {
    if (found.length >= 3) return;
    if (n.isMissing)
      found.push(`the command is incomplete: a ${n.type === '' ? 'token' : snippet(n.type)} is missing at character ${n.startIndex + 1}`);
    else if (n.isError) found.push(`the shell syntax could not be read near ${snippet(n.text)}`);
    else if (n.hasError) for (const c of n.children) visit(c);
  };
  visit(root);
  return found.length ? found : ['the shell syntax could not be read'];
}

/** A heredoc whose body the shell does not expand (`<<'EOF'`, `<<"EOF"`, `<<\EOF`). */
export function quotedHeredoc(redirect: Node): boolean {
  const start = redirect.children.find((c) => c.type === 'heredoc_start');
  return start !== undefined && /['"\\]/.test(start.text);
}

interface Landmarks {
  /** Ranges where the shell reads text literally: '…', $'…', comments, quoted heredoc bodies. */
  literal: Array<[number, number]>;
  /** Where the parser saw `$(`, `` ` `` (opening or closing) or `$((`. */
  substitutions: Set<number>;
  /** Backtick substitutions with a backslash inside: bash re-reads them, the grammar does not. */
  escapedBackticks: boolean;
}

function landmarks(root: Node): Landmarks {
  const marks: Landmarks = { literal: [], substitutions: new Set(), escapedBackticks: false };
  const visit = (n: Node) => {
    switch (n.type) {
      case 'raw_string':
      case 'ansi_c_string':
      case 'comment':
        marks.literal.push([n.startIndex, n.endIndex]);
        return;
      case 'heredoc_redirect':
        if (quotedHeredoc(n)) {
          for (const c of n.children) if (c.type === 'heredoc_body') marks.literal.push([c.startIndex, c.endIndex]);
        }
        break;
      case 'command_substitution':
        marks.substitutions.add(n.startIndex);
        if (n.text.startsWith('`')) {
          marks.substitutions.add(n.endIndex - 1);
          if (n.text.includes('\\')) marks.escapedBackticks = true;
        }
        break;
      case 'arithmetic_expansion':
        marks.substitutions.add(n.startIndex);
        break;
    }
    for (const c of n.children) visit(c);
  };
  visit(root);
  return marks;
}

/**
 * Text-level checks: control characters, a backslash-newline (bash joins the lines, even inside a word: `r\⏎m`), and
 * any `$(` or `` ` `` the parser did not read as a substitution (it misses some in heredoc bodies
 * and nested backticks), which bash would run.
 */
function textChecks(text: string, marks: Landmarks): string[] {
  const reasons = new Set<string>();
  const literal = [...marks.literal].sort((a, b) => a[0] - b[0]);
  let k = 0;
  let missed = false;
  for (let i = 0; i < text.length; i++) {
    while (k < literal.length && literal[k][1] <= i) k++;
    if (k < literal.length && literal[k][0] <= i) {
      i = literal[k][1] - 1;
      continue;
    }
    const c = text[i];
    // The grammar reads some control characters (\r, \f, \v) as blanks; bash reads them as part of a word.
    if (/[\x00-\x08\x0b-\x1f\x7f]/.test(c))
      reasons.add(`a control character (U+${c.charCodeAt(0).toString(16).padStart(4, '0').toUpperCase()}) in the command`);
    if (c === '\\') {
      if (text[i + 1] === '\n') reasons.add('a backslash-newline joins lines (bash reads them as one word or command)');
      i++;
      continue;
    }
    // One is enough (a missed opening backtick makes its closing one look missed too).
    if (!missed && (c === '`' || (c === '$' && text[i + 1] === '(')) && !marks.substitutions.has(i)) {
      missed = true;
      reasons.add(`a command substitution the parser did not recognise, near ${snippet(text.slice(i, i + 30))}`);
    }
  }
  if (marks.escapedBackticks) reasons.add('a backtick substitution with backslashes (bash reads it twice; nested backticks)');
  return [...reasons];
}

/** Everything about `text` (parsed as `root`) that makes it unanalysable before walking. */
export function scanScript(text: string, root: Node): string[] {
  return [...syntaxErrors(root), ...textChecks(text, landmarks(root))];
}
