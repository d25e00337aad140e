/**
 * Does a hook's matcher select this tool? Omitted, "" and "*" select every tool; a matcher of
 * plain name characters is an exact name or a list split on `|` or `,`; anything else is a
 * regular expression that must match the whole tool name (SPEC §4, §11.12). An invalid regular
 * expression selects nothing (the loader reports it).
 */
export function matches(matcher: string | undefined, toolName: string): boolean {
  if (matcher === undefined) return true;
  const m = matcher.trim();
  if (m === '' || m === '*') return true;
  if (/^[A-Za-z0-9_\- ,|]+$/.test(m)) return m.split(/[|,]/).some((name) => name.trim() === toolName || serverOf(name.trim(), toolName));
  // `mcp__github__*` (alone or in a `|` list): every tool of that server, as in rules (SPEC §12).
  if (/^[A-Za-z0-9_\- ,|*]+$/.test(m) && m.split(/[|,]/).every((n) => !n.includes('*') || /^mcp__[A-Za-z0-9_-]+__\*$/.test(n.trim()))) {
    return m.split(/[|,]/).some((n) => {
      const name = n.trim();
      return name.endsWith('__*') ? toolName.startsWith(name.slice(0, -1)) : name === toolName || serverOf(name, toolName);
    });
  }
  const re = compile(m);
  return re ? re.test(toolName) : false;
}

/** `mcp__github` selects every tool of that MCP server (`mcp__github__create_issue`), as in rules (SPEC §12). */
const serverOf = (name: string, toolName: string) =>
  /^mcp__[A-Za-z0-9_-]+$/.test(name) && !name.slice(5).includes('__') && toolName.startsWith(`${name}__`);

const cache = new Map<string, RegExp | null>();

function compile(pattern: string): RegExp | null {
  let re = cache.get(pattern);
  if (re === undefined) {
    try {
      re = new RegExp(`^(?:${pattern})$`);
    } catch {
      re = null;
    }
    cache.set(pattern, re);
  }
  return re;
}

/** Why the matcher is not a valid regular expression ("Unterminated group"), else undefined. */
export function regexError(matcher: string | undefined): string | undefined {
  if (matcher === undefined) return undefined;
  const m = matcher.trim();
  if (m === '' || m === '*' || /^[A-Za-z0-9_\- ,|]+$/.test(m)) return undefined;
  try {
    new RegExp(`^(?:${m})$`);
    return undefined;
  } catch (e) {
    return (e as Error).message.replace(/^Invalid regular expression: \/.*\/[a-z]*: /s, '');
  }
}

/** A message when the matcher is not a valid regular expression, else undefined. */
export function matcherProblem(matcher: string | undefined): string | undefined {
  const why = regexError(matcher);
  return why === undefined ? undefined : `matcher "${matcher}" is not a valid regular expression: ${why}`;
}
