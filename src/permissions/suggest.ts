import { relative, isAbsolute, dirname } from 'node:path';
import { isReadOnlyPart, privilegedWrapper } from './bash-commands.ts';
import { urlHost } from './web.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/** Programs whose first argument is a subcommand worth naming in a rule (`git status`, `npm test`). */
export const WITH_SUBCOMMANDS = new Set([
  'git',
  'gh',
  'npm',
  'pnpm',
  'yarn',
  'bun',
  'deno',
  'cargo',
  'go',
  'docker',
  'podman',
  'kubectl',
  'helm',
  'pip',
  'pip3',
  'uv',
  'poetry',
  'dotnet',
  'hg',
  'svn',
  'make',
  'terraform',
  'rustup',
  'brew',
  'mvn',
  'gradle',
  'composer',
  'bundle',
  'mix',
  'swift',
]);
/** Subcommands that run a script named next (`npm run test:unit`): the rule names the script too. */
const RUN = new Set(['run', 'run-script']);
/** Programs (and subcommands) that fetch and run a package named next: the rule names the package, never the runner alone. */
const PACKAGE_RUNNERS = new Set(['npx', 'bunx', 'pnpx', 'uvx']);
const DLX = new Set(['dlx', 'exec']);

/** A word that can stand in a rule as written: no spaces, quotes, globs or expansions. */
const plain = (w: string | undefined): w is string => !!w && /^[A-Za-z0-9@][\w@./:+=-]*$/.test(w);
const firstOperand = (args: string[]) => args.find((a) => !a.startsWith('-'));

/**
 * The rule to offer for one part of a command, or undefined when no rule would be narrow and
 * sensible. `Bash(prog:*)` for most programs: never a literal argument (`grep foo` is not
 * `Bash(grep foo:*)`). With a subcommand: `Bash(git status:*)`, `Bash(npm run test:*)`. A package
 * runner names the package: `Bash(npx tsc:*)`, never `Bash(npx:*)`, which would run any package.
 */
function bashRule(c: SimpleCommand): string | undefined {
  const { program, args } = c;
  if (PACKAGE_RUNNERS.has(program)) {
    const pkg = firstOperand(args);
    return plain(pkg) ? `Bash(${program} ${pkg}:*)` : undefined;
  }
  if (!WITH_SUBCOMMANDS.has(program)) return `Bash(${program}:*)`;
  const [sub, next] = args;
  if (!sub || !/^[a-z][a-z0-9-]*$/.test(sub)) return `Bash(${program}:*)`;
  if (RUN.has(sub) && plain(next) && !next.startsWith('-')) return `Bash(${program} ${sub} ${next}:*)`;
  if (DLX.has(sub) && (program === 'pnpm' || program === 'yarn')) {
    const pkg = firstOperand(args.slice(1));
    return plain(pkg) ? `Bash(${program} ${sub} ${pkg}:*)` : undefined;
  }
  return `Bash(${program} ${sub}:*)`;
}

/** `Bash(git:*)` covers `Bash(git status:*)`: a prefix rule covers the rules that start with its words. */
function covers(broad: string, narrow: string): boolean {
  const words = (r: string) => r.slice(5, -3).split(' ');
  if (broad === narrow || !broad.endsWith(':*)') || !narrow.endsWith(':*)')) return false;
  const [b, n] = [words(broad), words(narrow)];
  return b.length < n.length && b.every((w, i) => w === n[i]);
}

/**
 * The narrowest rules that would have allowed this call, for "allow always" (SPEC §5): one rule
 * per part of a compound command (`git status && npm test` → `Bash(git status:*)`, `Bash(npm test:*)`),
 * without duplicates or rules another one covers, and none for read-only parts (`tail`, `wc`,
 * `grep`), which run without asking anyway; the file itself for edits, the directory for reads
 * outside the project. Empty when no rule can be offered (a command that cannot be analysed).
 */
export function suggestRules(tool: string, input: Record<string, unknown>, projectRoot: string, shell?: ShellAnalysis): string[] {
  if (tool === 'Bash') {
    if (!shell || shell.unanalysable.length) return [];
    const rules = [
      ...new Set(
        shell.commands
          .filter((c) => c.program !== '' && !isReadOnlyPart(c))
          .map((c) => {
            // `sudo ls` is allowed only by a rule that names sudo too (decide.ts).
            const rule = bashRule(c);
            const priv = privilegedWrapper(c);
            return rule && priv ? rule.replace(/^Bash\(/, `Bash(${priv} `) : rule;
          })
          .filter((r): r is string => !!r),
      ),
    ];
    return rules.filter((r) => !rules.some((o) => covers(o, r)));
  }
  if (tool.startsWith('mcp__')) return [tool]; // an MCP tool: that one tool, never its server's others
  if (tool === 'WebFetch') {
    const host = urlHost(input.url);
    return host ? [`WebFetch(domain:${host})`] : [];
  }
  const raw = (input.file_path ?? input.path) as unknown;
  if (typeof raw !== 'string' || raw === '') return [tool];
  const abs = isAbsolute(raw) ? raw : `${projectRoot}/${raw}`;
  const rel = relative(projectRoot, abs);
  const outside = rel.startsWith('..') || isAbsolute(rel);
  if (tool === 'Edit' || tool === 'Write') return [`Edit(${outside ? `/${abs}` : `/${rel}`})`];
  const dir = tool === 'Read' ? dirname(abs) : abs;
  return [`Read(${outside ? `/${dir}/**` : `/${relative(projectRoot, dir) || '.'}/**`})`.replace('/./**', '/**')];
}
