import type { McpServerConfig } from './schema.ts';

/** A `${VAR}` with no default whose variable is not set: the server cannot start as written. */
interface MissingVariable {
  variable: string;
  /** The field it is written in: `args[1]`, `headers.Authorization`. */
  field: string;
}

const REF = /\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}/g;

/**
 * Expands `${VAR}` and `${VAR:-default}` in one string (SPEC §12), as Claude Code does: `$VAR`
 * without braces stays as written; the default is used when the variable is unset or empty.
 */
function expandString(text: string, env: Readonly<Record<string, string | undefined>>, missing: (variable: string) => void): string {
  return text.replace(REF, (whole, name: string, fallback: string | undefined) => {
    const value = env[name];
    if (value !== undefined && (value !== '' || fallback === undefined)) return value;
    if (fallback !== undefined) return fallback;
    missing(name);
    return whole;
  });
}

/**
 * The server with every string expanded: command, args, env values, cwd, url and header values
 * (keys are names, not expanded). Unset variables without a default are listed, with the field.
 */
export function expandServer(
  server: McpServerConfig,
  env: Readonly<Record<string, string | undefined>>,
): { server: McpServerConfig; missing: MissingVariable[] } {
  const missing: MissingVariable[] = [];
  const one = (text: string, field: string) => expandString(text, env, (variable) => missing.push({ variable, field }));
  const map = (rec: Record<string, string> | undefined, field: string) =>
    rec && Object.fromEntries(Object.entries(rec).map(([k, v]) => [k, one(v, `${field}.${k}`)]));
  const out: McpServerConfig = { ...server };
  if (server.command !== undefined) out.command = one(server.command, 'command');
  if (server.args) out.args = server.args.map((a, i) => one(a, `args[${i}]`));
  if (server.env) out.env = map(server.env, 'env');
  if (server.cwd !== undefined) out.cwd = one(server.cwd, 'cwd');
  if (server.url !== undefined) out.url = one(server.url, 'url');
  if (server.headers) out.headers = map(server.headers, 'headers');
  return { server: out, missing };
}

/** "${GITHUB_TOKEN} (in headers.Authorization) is not set": what a server waiting on variables is told. */
export function describeMissing(missing: readonly MissingVariable[]): string {
  const list = missing.map((m) => `\${${m.variable}} (in ${m.field})`).join(', ');
  return `${list} ${missing.length > 1 ? 'are' : 'is'} not set: set ${missing.length > 1 ? 'them' : 'it'} in the environment or in settings "env", or write \${NAME:-default}`;
}
