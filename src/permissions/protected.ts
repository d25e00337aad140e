import { readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { isAbsolute, join, relative, resolve } from 'node:path';

/**
 * Protected paths (SPEC §11.16): files that hold the user's guards or run code on their own
 * later, so a write to them asks in every mode, Auto-Accept and Bypass included (headless: a
 * refusal), whatever the rules and hooks allow. One list, used by the decision (decide.ts) and by
 * the sandbox (SPEC §13: it keeps them read-only).
 */

/** One protected file or directory (a directory protects everything under it). */
export interface GuardedPath {
  path: string;
  dir: boolean;
  /** What it is, for the question: "assistant settings (hooks and permission rules)". */
  why: string;
}

const SETTINGS = 'assistant settings (hooks and permission rules)';
const HOOK = 'a hook script named in the settings';
const SHELL = 'a shell start-up file';
const GIT_HOOKS = 'git hooks (they run on the next commit, checkout or push)';
const GIT_CONFIG = 'git configuration (it can name programs git runs)';

/** The user's shell start-up files and other files that run code on their own later (relative to home). */
export const HOME_STARTUP: ReadonlyArray<{ rel: string; dir?: boolean; why: string }> = [
  ...['.bashrc', '.bash_profile', '.bash_login', '.bash_logout', '.profile', '.zshrc', '.zshenv', '.zprofile', '.zlogin', '.zlogout',
    '.kshrc', '.mkshrc', '.cshrc', '.tcshrc', '.login', '.logout', '.xprofile', '.xsessionrc', '.xinitrc'].map((rel) => ({ rel, why: SHELL })),
  { rel: '.bashrc.d', dir: true, why: SHELL },
  { rel: '.config/fish', dir: true, why: SHELL },
  { rel: '.config/environment.d', dir: true, why: SHELL },
  { rel: '.config/autostart', dir: true, why: 'programs started at log-in' },
  { rel: '.config/systemd/user', dir: true, why: 'services started at log-in' },
  { rel: '.gitconfig', why: GIT_CONFIG },
  { rel: '.config/git/config', why: GIT_CONFIG },
  { rel: '.ssh/config', why: 'ssh configuration (it can name programs ssh runs)' },
  { rel: '.ssh/authorized_keys', why: 'the keys that may log in to this account' },
  { rel: '.ssh/rc', why: 'a script ssh runs at log-in' },
  // More files that run code later on their own: sourced by the shell's start-up files, read at log-in, or the start-up
  // code of programs a developer runs every day (an editor, a pager's shell, a package manager, a debugger).
  { rel: '.bash_aliases', why: SHELL },
  { rel: '.ssh/authorized_keys2', why: 'the keys that may log in to this account' },
  { rel: '.ssh/environment', why: 'variables ssh sets at log-in (LD_PRELOAD among them)' },
  { rel: '.pam_environment', why: 'variables set at log-in (LD_PRELOAD among them)' },
  ...['.vimrc', '.exrc', '.gvimrc', '.tmux.conf', '.gdbinit', '.psqlrc', '.sqliterc', '.npmrc', '.yarnrc', '.yarnrc.yml', '.kube/config', '.aws/config',
    '.cargo/config', '.cargo/config.toml'].map((rel) => ({ rel, why: 'start-up code or configuration that names programs to run' })),
  ...['.vim', '.config/nvim', '.config/direnv', '.ipython', '.gradle/init.d'].map((rel) => ({ rel, dir: true, why: 'start-up code of a program' })),
  ...['.local/bin', 'bin'].map((rel) => ({ rel, dir: true, why: 'programs on your PATH (a file there can stand in for git or npm)' })),
];

/** Settings files and state of `assistant` itself. */
function assistantFiles(projectRoot: string, home: string): GuardedPath[] {
  const out: GuardedPath[] = [];
  for (const dir of [projectRoot, home]) {
    for (const f of ['settings.json', 'settings.local.json']) out.push({ path: resolve(dir, '.assistant', f), dir: false, why: SETTINGS });
  }
  out.push({ path: resolve(home, '.assistant', 'state.json'), dir: false, why: 'the folders you trust (folder trust)' });
  out.push({ path: resolve(projectRoot, '.mcp.json'), dir: false, why: 'MCP servers of the project (they run as programs)' });
  return out;
}

/** What the session adds to the list: hook scripts, `--settings FILE`, git's real directories. */
export interface Guards {
  projectRoot: string;
  home: string;
  /** Hook scripts, `--settings FILE`, git's real directories (`sessionGuards`). */
  extra?: readonly GuardedPath[];
}

/** The lists built so far, by project, home and session additions (decisions ask for them often). */
const built = new Map<string, GuardedPath[]>();

/** Every protected path of a session. */
export function guardedPaths(g: Guards): GuardedPath[] {
  const key = JSON.stringify([g.projectRoot, g.home, g.extra ?? []]);
  let list = built.get(key);
  if (!list) {
    if (built.size > 100) built.clear();
    list = buildGuarded(g);
    built.set(key, list);
  }
  return [...list];
}

function buildGuarded(g: Guards): GuardedPath[] {
  const out = assistantFiles(g.projectRoot, g.home);
  out.push({ path: resolve(g.projectRoot, '.git', 'hooks'), dir: true, why: GIT_HOOKS });
  out.push({ path: resolve(g.projectRoot, '.git', 'config'), dir: false, why: GIT_CONFIG });
  out.push({ path: resolve(g.projectRoot, '.git', 'config.worktree'), dir: false, why: GIT_CONFIG });
  for (const s of HOME_STARTUP) out.push({ path: resolve(g.home, s.rel), dir: !!s.dir, why: s.why });
  out.push(...(g.extra ?? []));
  return out;
}

function inside(dir: string, p: string): boolean {
  const rel = relative(dir, p);
  return rel === '' || (!rel.startsWith('..') && !isAbsolute(rel));
}

/** What a protected path is, for the question, or undefined: `path` itself or a directory above it is protected. */
export function guardOf(path: string, list: readonly GuardedPath[]): string | undefined {
  for (const g of list) if (g.dir ? inside(g.path, path) : path === g.path) return g.why;
  // A file system that ignores case (macOS, Windows, a mounted one) opens `.GIT/hooks` as `.git/hooks`.
  const lower = path.toLowerCase();
  for (const g of list) if (g.dir ? inside(g.path.toLowerCase(), lower) : lower === g.path.toLowerCase()) return g.why;
  return undefined;
}

/**
 * Kept for callers that name one path (the sandbox's denied writes, decideByMode): what the file
 * is when it is protected (SPEC §11.16), else undefined. `extra`: the session's hook scripts and
 * git directories (`sessionGuards`). The rest of `.git/` asks in every mode but Bypass.
 */
export function protectedFile(path: string, projectRoot: string, home = homedir(), extra: readonly GuardedPath[] = []): string | undefined {
  return guardOf(path, guardedPaths({ projectRoot, home, extra })) ?? (inside(resolve(projectRoot, '.git').toLowerCase(), path.toLowerCase()) ? 'the git repository\'s internals (.git/)' : undefined);
}

/** Only the paths that ask in every mode, Bypass included (not the rest of `.git/`). */
export function strictlyProtected(path: string, g: Guards): string | undefined {
  return guardOf(path, guardedPaths(g));
}

// ---------------------------------------------------------------- what a session adds

/**
 * The files a hook command runs: every word of it that names an existing file, or has a `/`
 * (`"$CLAUDE_PROJECT_DIR"/.assistant/hooks/guard.sh`, `python3 hooks/check.py`, `bash ~/x.sh`),
 * with the project-directory variables expanded. Words the shell computes are left out.
 */
export function hookScripts(command: string, projectDir: string, home: string): string[] {
  const out = new Set<string>();
  const text = command.replace(/\$\{?(ASSISTANT|CLAUDE)_PROJECT_DIR\}?/g, projectDir).replace(/\$\{?HOME\}?(?=\/)/g, home);
  for (const raw of text.match(/(?:"[^"]*"|'[^']*'|[^\s;&|<>()"'])+/g) ?? []) {
    const w = raw.replace(/"([^"]*)"|'([^']*)'/g, '$1$2');
    // Quoted text with blanks is an argument (a jq filter, a message), not a file name.
    if (w === '' || w.startsWith('-') || /[$`*?\s]/.test(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) continue;
    const path = w.startsWith('~/') ? join(home, w.slice(2)) : resolve(projectDir, w);
    const looksLikePath = w.includes('/') || /\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|lua)$/.test(w);
    let isFile = false;
    if (!looksLikePath) { try { isFile = statSync(path).isFile(); } catch { /* not a file */ } }
    if (looksLikePath || isFile) out.add(path);
  }
  return [...out];
}

/**
 * The real `.git` directories of a project: `.git` may be a file naming the directory (a
 * worktree, a submodule), whose hooks and config are in the common directory; `core.hooksPath`
 * may move the hooks.
 */
export function gitGuards(projectRoot: string, home = homedir()): GuardedPath[] {
  const out: GuardedPath[] = [];
  let gitDir = join(projectRoot, '.git');
  try {
    if (statSync(gitDir).isFile()) {
      const m = /^gitdir:\s*(.+)$/m.exec(readFileSync(gitDir, 'utf8'));
      if (m) gitDir = resolve(projectRoot, m[1].trim());
    }
  } catch { return out; }
  const dirs = [gitDir];
  try {
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    if (common) dirs.push(resolve(gitDir, common));
  } catch { /* not a worktree */ }
  for (const d of dirs) {
    out.push({ path: join(d, 'hooks'), dir: true, why: GIT_HOOKS }, { path: join(d, 'config'), dir: false, why: GIT_CONFIG }, { path: join(d, 'config.worktree'), dir: false, why: GIT_CONFIG });
    try {
      const m = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(readFileSync(join(d, 'config'), 'utf8'));
      if (m) out.push({ path: resolve(projectRoot, m[1].replace(/^"(.*)"$/, '$1').replace(/^~(?=\/)/, home)), dir: true, why: GIT_HOOKS });
    } catch { /* no config */ }
  }
  return out;
}

/**
 * The session's additions to the protected list (SPEC §11.16): the scripts every settings file's
 * hooks run, a `--settings FILE`, git's real directories. Reads the disk; computed at start and
 * when the user accepts changed settings.
 */
export function sessionGuards(projectRoot: string, home: string, hooks: ReadonlyArray<{ command: string }>, settingsFiles: readonly string[] = []): GuardedPath[] {
  const out = new Map<string, GuardedPath>();
  for (const h of hooks) {
    for (const p of hookScripts(h.command, projectRoot, home)) {
      if (p !== projectRoot && p !== home && !isSystemProgram(p)) out.set(p, { path: p, dir: false, why: HOOK });
    }
  }
  for (const f of settingsFiles) if (isAbsolute(f)) out.set(resolve(f), { path: resolve(f), dir: false, why: SETTINGS });
  for (const g of gitGuards(projectRoot, home)) out.set(g.path, g);
  return [...out.values()];
}

/** `/usr/bin/jq` in a hook command is a program of the system, not a script the model could rewrite. */
const isSystemProgram = (p: string) => /^\/(usr\/)?(s?bin|lib|libexec)\//.test(p);
