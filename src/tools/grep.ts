import { stat } from 'node:fs/promises';
import { resolve } from 'node:path';
import { z } from 'zod';
import { sortByMtime } from '../fs/mtime-sort.ts';
import { displayPath, resolvePath } from '../fs/paths.ts';
import { COMMON_RG_FLAGS, runRg, splitGlobs } from '../fs/rg.ts';
import type { ToolDef, ToolResult } from './types.ts';
import { optionalBool, optionalInt, optionalString, optionalPath } from './zod-helpers.ts';
import description from './grep.md';

/** Characters of Grep output the model gets at most. */
const MAX_GREP_CHARS = 30_000;

const schema = z.object({
  pattern: z.string().min(1).describe('The regular expression to search for (ripgrep syntax).'),
  path: optionalPath('File or directory to search in (default: the project directory).'),
  glob: optionalString('Only search files matching this glob, e.g. "*.js" or "*.{ts,tsx}".'),
  type: optionalString('Only search files of this ripgrep type, e.g. "js", "py", "rust".'),
  output_mode: z
    .preprocess((v) => (v === null || v === '' ? undefined : v), z.enum(['content', 'files_with_matches', 'count']).optional())
    .describe('"content" shows matching lines, "files_with_matches" (default) lists files, "count" gives matches per file.'),
  '-i': optionalBool('Case-insensitive search.'),
  '-n': optionalBool('Show line numbers (content mode; default true).'),
  '-A': optionalInt('Lines of context after each match (content mode).'),
  '-B': optionalInt('Lines of context before each match (content mode).'),
  '-C': optionalInt('Lines of context before and after each match (content mode).'),
  multiline: optionalBool('Let the pattern span lines; "." matches newlines (default false).'),
  head_limit: optionalInt('Show only the first N lines, files or counts.', 1),
});

type Input = z.infer<typeof schema>;
const fail = (output: string): ToolResult => ({ output, isError: true });

function rgArgs(input: Input, mode: string, target: string | undefined): string[] {
  const args = [...COMMON_RG_FLAGS, '--color=never', '--max-columns=500', '--max-columns-preview'];
  if (input['-i']) args.push('--ignore-case');
  if (input.multiline) args.push('--multiline', '--multiline-dotall');
  if (input.type) args.push('--type', input.type);
  for (const g of splitGlobs(input.glob ?? '')) args.push('--glob', g);
  // A NUL ends each file name, so results can be told apart by file (pathOf) whatever the name holds.
  if (mode === 'files_with_matches') args.push('--files-with-matches');
  else if (mode === 'count') args.push('--count-matches', '--with-filename', '--null');
  else {
    args.push('--no-heading', '--with-filename', '--field-match-separator=\\x00:', '--field-context-separator=\\x00-');
    if (input['-n'] ?? true) args.push('--line-number');
    if (input['-C'] !== undefined) args.push('--context', String(input['-C']));
    if (input['-A'] !== undefined) args.push('--after-context', String(input['-A']));
    if (input['-B'] !== undefined) args.push('--before-context', String(input['-B']));
  }
  args.push('--regexp', input.pattern);
  if (target !== undefined) args.push('--', target);
  return args;
}

/**
 * Splits an rg output line made with the NUL separators of rgArgs into its file and the line as
 * rg prints it by default (`path:12:text`, `path-13-text`, `path:3`); `--` group separators have no file.
 */
function pathOf(line: string, mode: string, numbered: boolean): { path?: string; line: string } {
  if (mode === 'files_with_matches') return { path: line, line };
  const i = line.indexOf('\0');
  if (i < 0) return { line };
  const rest = line.slice(i + 1);
  if (mode === 'count') return { path: line.slice(0, i), line: `${line.slice(0, i)}:${rest}` };
  return { path: line.slice(0, i), line: line.slice(0, i) + (numbered ? rest.replace('\0', '') : rest) };
}

/** Keeps lines until `head_limit` or the character cap; counts the rest. */
class Collector {
  lines: string[] = [];
  chars = 0;
  skipped = 0;
  capped = false;
  constructor(
    private readonly max: number,
    private readonly keepAll: boolean,
  ) {}
  add = (line: string) => {
    if (this.keepAll) {
      this.lines.push(line);
      return;
    }
    if (this.lines.length >= this.max || this.capped) {
      this.skipped++;
      return;
    }
    if (this.chars + line.length + 1 > MAX_GREP_CHARS) {
      this.capped = true;
      this.skipped++;
      return;
    }
    this.lines.push(line);
    this.chars += line.length + 1;
  };
}

function limitNote(kept: number, skipped: number, capped: boolean, what: string, headLimit?: number): string {
  if (skipped === 0) return '';
  const why = capped ? `output capped at ${MAX_GREP_CHARS} characters` : `head_limit=${headLimit}`;
  const noun = kept === 1 ? what.replace(/s$/, '') : what;
  return `\n\n(Showing the first ${kept === 1 ? '' : `${kept} `}${noun}; ${skipped} more not shown: ${why}. Narrow the search with path, glob or a more specific pattern.)`;
}

export const grepTool: ToolDef<typeof schema> = {
  name: 'Grep',
  description,
  schema,
  readOnly: true,
  access: 'read',
  family: 'Read',
  pathIs: 'dir',
  filePath: (input, cwd) => (input.path ? resolvePath(input.path, cwd) : undefined),

  async execute(input, ctx) {
    const mode = input.output_mode ?? 'files_with_matches';
    let target: string | undefined;
    if (input.path) {
      const abs = resolvePath(input.path, ctx.cwd);
      if (
        !(await stat(abs).then(
          () => true,
          () => false,
        ))
      )
        return fail(`Path does not exist: ${abs}. Use Glob or LS to find the right path.`);
      const shown = displayPath(abs, ctx.cwd);
      target = shown === '.' ? undefined : shown;
    }
    const headLimit = input.head_limit;
    // files_with_matches sorts by mtime first, so it keeps every path and limits afterwards.
    const collector = new Collector(headLimit ?? Infinity, mode === 'files_with_matches');
    // Count output is `path:N` per file; tally every line, shown or not.
    let total = 0;
    // Files a Read deny rule covers are left out, whatever the search root, and silently: a note would tell what they hold.
    const numbered = input['-n'] ?? true;
    // Each file is checked once, however many lines it has (content mode prints one per match).
    const deniedFiles = new Map<string, boolean>();
    const isDenied = (path: string) => {
      let d = deniedFiles.get(path);
      if (d === undefined) {
        d = ctx.readDenied?.('Grep', resolve(ctx.cwd, path)) ?? false;
        deniedFiles.set(path, d);
      }
      return d;
    };
    const onLine = (raw: string) => {
      const { path, line } = pathOf(raw, mode, numbered);
      if (path !== undefined && ctx.readDenied && isDenied(path)) return;
      if (mode === 'count') {
        const n = Number(line.slice(line.lastIndexOf(':') + 1));
        if (Number.isFinite(n)) total += n;
      }
      collector.add(line);
    };
    const end = await runRg(rgArgs(input, mode, target), ctx.cwd, ctx.signal, onLine);
    if (end.aborted) return fail('Grep was interrupted.');
    if (end.spawnError) return fail(`Could not run ripgrep: ${end.spawnError.message}`);
    const found = collector.lines.length + collector.skipped;
    // rg exits 2 when a glob, a type or an empty folder leaves no file to search: that is no match, not a fault.
    const noFiles = end.code === 2 && /^rg: No files were searched\b/m.test(end.stderr) && end.stderr.trim().split('\n').length <= 2;
    if (end.code === 2 && found === 0 && !noFiles) {
      const hint = /regex parse error/.test(end.stderr)
        ? '\nThe pattern is a Rust regex: escape literal ( ) [ ] { } . * + ? | with a backslash, e.g. "foo\\(".'
        : '';
      return fail(`ripgrep error: ${end.stderr || 'unknown error'}${hint}`);
    }
    const warning =
      end.code === 2 && end.stderr && !noFiles ? `\n\n(ripgrep reported problems: ${end.stderr.split('\n').slice(0, 3).join('; ')})` : '';

    if (mode === 'files_with_matches') {
      const sorted = await sortByMtime(collector.lines, ctx.cwd);
      const limited = sorted.slice(0, headLimit ?? Infinity);
      let chars = 0;
      const cut = limited.findIndex((p) => (chars += p.length + 1) > MAX_GREP_CHARS);
      const shown = cut === -1 ? limited : limited.slice(0, cut);
      const response = { mode, filenames: limited, numFiles: limited.length };
      if (sorted.length === 0) return { output: 'No matches found', display: 'No matches', response };
      const note = limitNote(shown.length, sorted.length - shown.length, cut !== -1, 'files', headLimit);
      return {
        output: `Found ${sorted.length} file${sorted.length === 1 ? '' : 's'}\n${shown.join('\n')}${note}${warning}`,
        display: `Found ${sorted.length} file${sorted.length === 1 ? '' : 's'}`,
        response,
      };
    }

    if (mode === 'count') {
      const content = collector.lines.join('\n');
      const response = { mode, numFiles: found, filenames: [], content, numMatches: total };
      if (found === 0) return { output: 'No matches found', display: 'No matches', response };
      const note = limitNote(collector.lines.length, collector.skipped, collector.capped, 'files', headLimit);
      const summary = `Found ${total} total match${total === 1 ? '' : 'es'} across ${found} file${found === 1 ? '' : 's'}.`;
      return {
        output: `${content}\n\n${summary}${note}${warning}`,
        display: `${total} match${total === 1 ? '' : 'es'} in ${found} file${found === 1 ? '' : 's'}`,
        response,
      };
    }

    const content = collector.lines.join('\n');
    const response = { mode, numFiles: 0, filenames: [], content, numLines: collector.lines.length };
    if (found === 0) return { output: 'No matches found', display: 'No matches', response };
    const note = limitNote(collector.lines.length, collector.skipped, collector.capped, 'lines', headLimit);
    return { output: `${content}${note}${warning}`, display: `Found ${found} lines`, response };
  },
};
