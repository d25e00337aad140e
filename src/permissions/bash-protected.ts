import { dirname, join } from 'node:path';
import picomatch from 'picomatch';
import type { CommandFiles, Target } from './bash-files.ts';
import { lookOf, pathForms, type PathContext } from './path-forms.ts';
import { extractedFiles } from './archives.ts';
import { guardedPaths, guardOf, type GuardedPath } from './protected.ts';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

/**
 * Protected paths named by a Bash command (SPEC §11.16): the settings that hold the guards, the
 * hook scripts they name, `.mcp.json`, git's hooks and config, the shell's start-up files. Pure
 * but for `ctx.look`.
 */

interface GuardContext extends PathContext {
  /** The session's hook scripts, `--settings FILE` and git directories (protected.ts `sessionGuards`). */
  guarded?: readonly GuardedPath[];
}

/** `/a/b/c` → `/a/b/c`, `/a/b`, `/a`. */
const ancestors = (p: string): string[] =>
  p
    .split('/')
    .slice(1)
    .map((_, i, segs) => `/${segs.slice(0, segs.length - i).join('/')}`);

/**
 * Symlinks a command makes (`ln -s A B`) are followed by later paths as if they were on disk
 * already: `ln -s .assistant s && echo x > s/settings.json` writes `.assistant/settings.json`.
 */
export function withLinks<T extends PathContext>(ctx: T, links: ReadonlyArray<{ link: string; target: string; copy?: boolean }>): T {
  const known = links.filter((l) => l.link !== '' && l.target !== '');
  if (known.length === 0) return ctx;
  const inner = lookOf(ctx);
  const realpath = (p: string): string => {
    let q = p;
    for (let n = 0; n < 8; n++) {
      const l = known.find((k) => q === k.link || q.startsWith(`${k.link}/`));
      if (!l) break;
      const mapped = l.target + q.slice(l.link.length);
      if (l.copy) {
        // A copy holds its own files: a path in it leads elsewhere only through a symlink it copied.
        const real = inner.realpath(mapped);
        return real === join(mapped) ? inner.realpath(q) : real;
      }
      q = mapped;
    }
    return inner.realpath(q);
  };
  return { ...ctx, look: { ...inner, realpath } };
}

interface Guarded {
  /** The part that writes it. */
  part: SimpleCommand;
  /** What the file is, for the question. */
  what: string;
  /** The path as named. */
  path: string;
}

/**
 * The first protected path a part of the command may change. Read-only parts and `mkdir` are
 * skipped; a described program counts by what it writes (file-programs.ts), a program not
 * described by every file it names. `strict`: only the paths that ask in Bypass too (not the rest
 * of `.git/`). Also: the `.assistant` directory itself, a pattern that matches a protected file,
 * and a directory above one that a program removes or moves (`rm -rf .`, `mv .git x`).
 */
export function protectedWrite(
  a: ShellAnalysis,
  files: CommandFiles[],
  contextOf: (i: number) => GuardContext,
  dot: boolean,
  readOnly: (c: SimpleCommand) => boolean,
  strict: boolean,
  command: string,
): Guarded | undefined {
  const ctx = contextOf(0);
  const list = guardedPaths({ projectRoot: ctx.projectRoot, home: ctx.home, extra: ctx.guarded });
  if (!strict) list.push({ path: `${ctx.projectRoot}/.git`, dir: true, why: "the git repository's internals (.git/)" });
  const settingsDirs = [ctx.projectRoot, ctx.home].map((d) => `${d}/.assistant`);
  const guardedFiles = list.filter((g) => !g.dir).map((g) => g.path);
  const tops = [...settingsDirs, ...list.map((g) => g.path)];
  for (const [i, c] of a.commands.entries()) {
    if (readOnly(c) || c.program === 'mkdir') continue;
    const later = PERSISTS[c.program]?.(c.args);
    if (later) return { part: c, what: later, path: c.program };
    const f = files[i];
    const named: Array<{ t: Target; tree: boolean }> = [
      ...[...f.writes, ...f.dests].map((t) => ({ t, tree: false })),
      ...f.trees.map((t) => ({ t, tree: true })),
      ...(f.undescribed ? f.reads.map((t) => ({ t, tree: false })) : []),
    ];
    for (const { t, tree } of named) {
      for (const form of pathForms(t.abs, contextOf(i), t.raw).forms) {
        const what = guardedName(form, t, tree, list, guardedFiles, settingsDirs, tops, dot);
        if (what) return { part: c, what, path: t.word };
      }
    }
    // A name known only at run time: its literal tail (`"$HOME/.bashrc"`, `cd "$X" && … > .bashrc`) may be one.
    for (const u of f.unknownWrites) {
      const g = u.rel ? list.find((x) => tailOf(x, u.rel)) : undefined;
      if (g) return { part: c, what: g.why, path: u.word };
      // Its literal head (`.git/$h/pre-commit`, `~/"$f"`): a directory that holds a protected path.
      const head = literalHead(u.word);
      const above = head
        ? f.dirs.flatMap((d) =>
            pathForms(
              head.startsWith('~/') ? join(ctx.home, head.slice(2)) : head.startsWith('/') ? head : join(d, head),
              contextOf(i),
            ).forms.map((x) => x.replace(/(.)\/+$/, '$1')),
          )
        : [];
      const held = above.length
        ? [...tops, ...list.map((x) => x.path)].find((t) =>
            above.some((a) => a !== ctx.projectRoot && (t === a || t.startsWith(`${a}/`) || guardOf(a, list) !== undefined)),
          )
        : undefined;
      if (held)
        return {
          part: c,
          what: `${guardOf(held, list) ?? 'assistant settings (hooks and permission rules)'} (${u.word} is a name under ${head} known only when it runs)`,
          path: u.word,
        };
      // In Bypass nothing else asks about it: a command that spells a protected name anywhere (`F=~/.bashrc; … > "$F"`) does.
      const spelled = strict && !u.rel ? spelledGuard(command, list) : undefined;
      if (spelled) return { part: c, what: spelled.why, path: `${u.word} (the command names ${spelled.word})` };
    }
    // A program's own code that names one (`python3 -c "open('.git/hooks/pre-commit', 'w')"`).
    const spelled = c.code ? spelledGuard(c.code.text, list) : undefined;
    if (spelled) return { part: c, what: spelled.why, path: spelled.word };
    // A program that writes names not in its words (an archive, a patch) in a command that spells one
    // (`tar -xf t.tar --transform='s,^,.git/hooks/,'`, a patch in a heredoc with `+++ .git/hooks/x`).
    const carried = f.extracts ? (spelledGuard(command, list) ?? spelledGuard(decodeEscapes(command), list)) : undefined;
    if (carried)
      return {
        part: c,
        what: carried.why,
        path: `${carried.word} (it writes the names its archive or patch holds, and the command names this one)`,
      };
    // The names the archive or patch on disk holds (`tar -xf t.tar` with `.git/hooks/pre-commit` in it).
    const look = lookOf(contextOf(i));
    const held = f.extracts && look.archiveNames ? extractedFiles(c, f.dirs, ctx.home, (p) => look.archiveNames!(p)) : undefined;
    for (const p of held ?? []) {
      for (const form of pathForms(p, contextOf(i)).forms) {
        const what = guardOf(form, list) ?? (settingsDirs.includes(form) ? 'assistant settings (hooks and permission rules)' : undefined);
        if (what) return { part: c, what, path: `${p} (in what it unpacks)` };
      }
    }
  }
  return undefined;
}

/**
 * `\x2e`, `\056`, `\u002e` as ANSI-C quoting (`$'…'`), `printf` and `echo -e` spell them: the
 * command's text with them decoded, so a protected name spelled in escapes is still seen.
 */
function decodeEscapes(text: string): string {
  return text
    .replace(/\\x([0-9a-fA-F]{1,2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\u([0-9a-fA-F]{1,4})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)))
    .replace(/\\0?([0-7]{1,3})/g, (_, o: string) => String.fromCharCode(parseInt(o, 8)))
    .replace(/\\(.)/g, '$1')
    .replace(/["']/g, '');
}

/**
 * A command with a part the analyser cannot see into (`eval "…"`, `bash <<< '…'`, `… | sh`,
 * `GIT_WORK_TREE=… git …`) that spells a protected path anywhere in its text, escapes decoded
 * (SPEC §11.16: protected paths ask in every mode, Bypass included, and nothing else asks about
 * such a part in Bypass). Returns what the path is and the word that names it.
 */
export function hiddenGuardWrite(a: ShellAnalysis, command: string, ctx: GuardContext): { what: string; path: string } | undefined {
  const unseen = a.unanalysable.filter((r) => !a.filesRun?.includes(r));
  if (unseen.length === 0) return undefined;
  const list = guardedPaths({ projectRoot: ctx.projectRoot, home: ctx.home, extra: ctx.guarded });
  const g = spelledGuard(command, list) ?? spelledGuard(decodeEscapes(command), list);
  return g && { what: g.why, path: g.word };
}

/** The directory a word names before its first expansion (`.git/$h/x` → `.git/`, `~/"$f"` → `~/`), or undefined. */
function literalHead(word: string): string | undefined {
  const w = word.replace(/["']/g, '');
  const cut = w.search(/[$`]/);
  if (cut <= 0) return undefined;
  const slash = w.lastIndexOf('/', cut);
  return slash >= 0 ? w.slice(0, slash + 1) : undefined;
}

/** Programs that install commands to run later, outside the session (like a start-up file): what, or undefined. */
const PERSISTS: Record<string, (args: string[]) => string | undefined> = {
  crontab: (args) =>
    args.some((a) => /^-[a-zA-Z]*[lT]/.test(a)) && !args.some((a) => /^-[a-zA-Z]*[er]/.test(a)) && !args.some((a) => !a.startsWith('-'))
      ? undefined
      : 'your crontab (commands it holds run later, on their own)',
  at: (args) => (args.some((a) => /^-[a-zA-Z]*[lcr]/.test(a)) ? undefined : 'a command scheduled to run later, on its own'),
  batch: () => 'a command scheduled to run later, on its own',
};

/** Could a path whose directory is unknown, ending in `rel`, be the protected `g`? */
function tailOf(g: GuardedPath, rel: string): boolean {
  const norm = rel.split('/').filter((s) => s !== '' && s !== '.' && s !== '..');
  if (norm.length === 0) return false;
  for (let k = norm.length; k > 0; k--) {
    const head = norm.slice(0, k).join('/');
    if (g.path.endsWith(`/${head}`) && (g.dir || k === norm.length)) return true;
  }
  return false;
}

/** A word of `text` that names a protected path by its own name (`.bashrc`, `settings.local.json`, `.git/hooks`). */
function spelledGuard(text: string, list: GuardedPath[]): { word: string; why: string } | undefined {
  for (const word of new Set(text.split(/[\s"'`;&|()<>=,$[\]{}]+/))) {
    const w = word.replace(/^~?\/?/, '');
    if (w === '' || !/[./]/.test(w)) continue;
    const g = list.find((x) => tailOf(x, w) && (w.includes('/') || distinctive(x)));
    if (g) return { word, why: g.why };
  }
  return undefined;
}

/** A protected file whose base name alone says what it is (`.bashrc`, `settings.json`), not `config`. */
const distinctive = (g: GuardedPath) => !g.dir && !/^(config|config\.worktree|rc)$/.test(g.path.slice(g.path.lastIndexOf('/') + 1));

function guardedName(
  form: string,
  t: Target,
  tree: boolean,
  list: GuardedPath[],
  files: string[],
  settingsDirs: string[],
  tops: string[],
  dot: boolean,
): string | undefined {
  const pattern = t.glob && picomatch.scan(form).isGlob;
  if (pattern) {
    const hit = files.find((p) => picomatch.isMatch(p, form, { dot: true }));
    if (hit) return guardOf(hit, list);
    // A pattern in a protected directory (`.git/hooks/pre-comm*`).
    const base = picomatch.scan(form).base;
    const inside = base ? list.find((g) => g.dir && guardOf(base, [g])) : undefined;
    if (inside) return `${inside.why} (${t.word} names files in ${inside.path})`;
    // A pattern in a directory segment (`.git/hoo?s/pre-commit`, `~/.ss*/rc`): a protected directory it may lead through.
    const segs = form.split('/');
    for (let k = segs.length - 1; k > 1; k--) {
      const head = segs.slice(0, k).join('/');
      if (!picomatch.scan(head).isGlob) break;
      const dir = list.find((g) => g.dir && picomatch.isMatch(g.path, head, { dot }));
      if (dir) return `${dir.why} (${t.word} may lead into ${dir.path})`;
    }
    if (tree && tops.flatMap(ancestors).some((p) => picomatch.isMatch(p, form, { dot })))
      return 'files that hold your guards (they are under what it removes or moves)';
    return undefined;
  }
  const bare = form.replace(/\/+$/, '');
  const own = guardOf(bare, list);
  if (own) return own;
  if (settingsDirs.includes(bare)) return 'assistant settings (hooks and permission rules)';
  if (tree) {
    const named = (p: string) => !t.names || t.names.every((n) => picomatch.isMatch(p.slice(p.lastIndexOf('/') + 1), n, { dot: true }));
    const under = tops.find((p) => (bare === '/' || p.startsWith(`${bare}/`)) && named(p));
    if (under) return `${guardOf(under, list) ?? 'assistant settings (hooks and permission rules)'} (under ${bare || '/'})`;
  }
  return undefined;
}

/**
 * A part that makes a symbolic link, then a later part that writes a file (SPEC §11.16: the
 * link may lead anywhere, and a later write goes where it leads). Returns the two parts.
 */
export function writeAfterLink(
  a: ShellAnalysis,
  files: CommandFiles[],
  ctx: PathContext,
): { link: SimpleCommand; write: SimpleCommand } | undefined {
  const first = files.findIndex((f) => f.links.some((l) => !l.copy));
  for (let i = first + 1; first >= 0 && i < files.length; i++) {
    const f = files[i];
    if (f.writes.length || f.dests.length || f.trees.length || f.unknownWrites.length)
      return { link: a.commands[first], write: a.commands[i] };
  }
  // `tar -xf a.tar && echo x > l/f`: the archive may hold a symlink `l`. A later write under a
  // directory that is not there yet (the archive may make it) counts the same.
  const extract = files.findIndex((f) => f.extracts);
  for (let i = extract + 1; extract >= 0 && i < files.length; i++) {
    const t = [...files[i].writes, ...files[i].dests, ...files[i].trees].find((x) => !lookOf(ctx).isDir(dirname(x.abs)));
    if (t) return { link: a.commands[extract], write: a.commands[i] };
  }
  return undefined;
}
