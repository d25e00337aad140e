import { basename, resolve } from 'node:path';
import type { CommandFiles } from './bash-files.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/**
 * A part that runs a file an earlier part of the same command wrote: a copy of or link to a program
 * under another name (`cp /usr/bin/rm t && ./t x`), a script (`echo 'rm x' > s.sh; bash s.sh`), or
 * the makefile or package.json a build tool runs (`echo … > package.json; npm run t`). What the
 * file runs is not what the rules see, so while a `Bash(…)` deny rule is in force it is decided as
 * code (decide.ts). Returns the two parts, or undefined.
 */
export function runsWrittenFile(a: ShellAnalysis, files: CommandFiles[]): { writer: SimpleCommand; runner: SimpleCommand } | undefined {
  const written = new Map<string, SimpleCommand>();
  for (const [i, c] of a.commands.entries()) {
    const f = files[i];
    if (written.size) {
      const dirs = f.dirs.length ? f.dirs : ['/'];
      const named = [c.programPath, scriptOf(c)].filter((w): w is string => !!w && !w.startsWith('-'));
      for (const w of named)
        for (const d of dirs) {
          const writer = written.get(resolve(d, w));
          if (writer) return { writer, runner: c };
        }
      if (BUILD_TOOLS.has(c.program))
        for (const [abs, writer] of written)
          if (MANIFESTS.has(basename(abs)) && dirs.some((d) => resolve(d, basename(abs)) === abs)) return { writer, runner: c };
    }
    for (const t of [...f.writes, ...f.dests]) written.set(t.abs, c);
  }
  return undefined;
}

/** The file a shell or interpreter runs: its first operand, or the value of `-f` (`make -f F`, `awk -f F`). */
function scriptOf(c: SimpleCommand): string | undefined {
  if (!RUNS_FILES.has(c.program)) return undefined;
  if (FILE_OPTION.has(c.program)) {
    const i = c.args.findIndex((a) => a === '-f' || a === '--file' || a === '--makefile');
    if (i >= 0) return c.args[i + 1];
    const long = c.args.find((a) => /^--(file|makefile)=/.test(a));
    if (long) return long.slice(long.indexOf('=') + 1);
    return c.program === 'make' || c.program === 'gmake' ? undefined : c.args.find((a) => !a.startsWith('-'));
  }
  return c.args.find((a) => !a.startsWith('-'));
}
const FILE_OPTION = new Set(['make', 'gmake', 'awk', 'gawk', 'sed']);

/** Programs that run a file named among their arguments (shells, `source`, interpreters). */
const RUNS_FILES = new Set([
  'sh',
  'bash',
  'dash',
  'zsh',
  'ksh',
  'mksh',
  'busybox',
  'source',
  '.',
  'python',
  'python3',
  'node',
  'perl',
  'ruby',
  'php',
  'deno',
  'bun',
  'tsx',
  'ts-node',
  'make',
  'gmake',
  'awk',
  'gawk',
  'sed',
]);

/** Build tools that run what a file of the directory says, and those files. */
const BUILD_TOOLS = new Set(['make', 'gmake', 'npm', 'pnpm', 'yarn', 'bun', 'npx', 'just', 'rake', 'pip', 'pip3', 'cargo']);
const MANIFESTS = new Set([
  'Makefile',
  'makefile',
  'GNUmakefile',
  'package.json',
  '.npmrc',
  'justfile',
  'Justfile',
  'Rakefile',
  'setup.py',
  'pyproject.toml',
  'build.rs',
  'Cargo.toml',
]);
