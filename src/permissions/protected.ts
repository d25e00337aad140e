import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs';
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
const HOME_STARTUP: ReadonlyArray<{ rel: string; dir?: boolean; why: string }> = [
  ...[
    '.bashrc',
    '.bash_profile',
    '.bash_login',
    '.bash_logout',
    '.profile',
    '.zshrc',
    '.zshenv',
    '.zprofile',
    '.zlogin',
    '.zlogout',
    '.kshrc',
    '.mkshrc',
    '.cshrc',
    '.tcshrc',
    '.login',
    '.logout',
    '.xprofile',
    '.xsessionrc',
    '.xinitrc',
  ].map((rel) => ({ rel, why: SHELL })),
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
  ...[
    '.vimrc',
    '.exrc',
    '.gvimrc',
    '.tmux.conf',
    '.gdbinit',
    '.psqlrc',
    '.sqliterc',
    '.npmrc',
    '.yarnrc',
    '.yarnrc.yml',
    '.kube/config',
    '.aws/config',
    '.cargo/config',
    '.cargo/config.toml',
    '.curlrc',
    '.wgetrc',
    '.inputrc',
    '.emacs',
    '.hgrc',
    '.condarc',
    '.pip/pip.conf',
    '.docker/config.json',
    '.m2/settings.xml',
  ].map((rel) => ({ rel, why: 'start-up code or configuration that names programs to run' })),
  ...['.vim', '.config/nvim', '.config/direnv', '.ipython', '.gradle/init.d', '.emacs.d', '.config/emacs', '.config/pip'].map((rel) => ({
    rel,
    dir: true,
    why: 'start-up code of a program',
  })),
  ...['.local/bin', 'bin'].map((rel) => ({ rel, dir: true, why: 'programs on your PATH (a file there can stand in for git or npm)' })),
  // Python runs every `.pth` file and `usercustomize.py` of the user's site-packages at each start.
  { rel: '.local/lib', dir: true, why: "the user's site-packages (Python runs their .pth files at every start)" },
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
interface Guards {
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
export function protectedFile(path: string, projectRoot: string, home: string, extra: readonly GuardedPath[] = []): string | undefined {
  return (
    guardOf(path, guardedPaths({ projectRoot, home, extra })) ??
    (inside(resolve(projectRoot, '.git').toLowerCase(), path.toLowerCase()) ? "the git repository's internals (.git/)" : undefined)
  );
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
  return [...hookFiles(command, projectDir, home).files];
}

const SCRIPT = /\.(sh|bash|zsh|py|js|mjs|cjs|ts|rb|pl|php|lua)$/;
const isFileAt = (p: string) => {
  try {
    return statSync(p).isFile();
  } catch {
    return false;
  }
};
const isDirAt = (p: string) => {
  try {
    return statSync(p).isDirectory();
  } catch {
    return false;
  }
};

/**
 * The files a hook command runs (`hookScripts`), and the directories they are run from: a
 * `cd DIR` before the script (`cd .assistant/hooks && ./guard.sh`), a script inside a quoted
 * `sh -c "…"` string (named by a script's extension, or an existing file), a module of
 * `python3 -m hooks.guard`.
 */
function hookFiles(command: string, projectDir: string, home: string): { files: Set<string>; dirs: Set<string> } {
  const files = new Set<string>();
  const dirs = new Set<string>();
  const text = command.replace(/\$\{?(ASSISTANT|CLAUDE)_PROJECT_DIR\}?/g, projectDir).replace(/\$\{?HOME\}?(?=\/)/g, home);
  const bases = [projectDir];
  const at = (w: string) =>
    w.startsWith('~/') ? [join(home, w.slice(2))] : w.startsWith('/') ? [resolve(w)] : bases.map((b) => resolve(b, w));
  const scan = (source: string, quoted: boolean) => {
    const words = source.match(/(?:"[^"]*"|'[^']*'|[^\s;&|<>()"'])+/g) ?? [];
    for (const [k, raw] of words.entries()) {
      const w = raw.replace(/"([^"]*)"|'([^']*)'/g, '$1$2');
      // Quoted text with blanks is an argument (a jq filter, a message) or a script (`sh -c "…"`): only its script files count.
      if (/\s/.test(w) && /^["']/.test(raw)) {
        scan(w, true);
        continue;
      }
      if (w === '' || w.startsWith('-') || /[$`*?\s]/.test(w) || /^[A-Za-z_][A-Za-z0-9_]*=/.test(w) || !/\w/.test(w)) continue;
      const prev = words[k - 1]?.replace(/["']/g, '');
      if (prev === 'cd' || prev === 'pushd') {
        for (const d of at(w)) {
          bases.push(d);
          dirs.add(d);
        }
        continue;
      }
      // `python3 -m hooks.guard`: hooks/guard.py.
      const module = prev === '-m' && /^[A-Za-z_][\w.]*$/.test(w) ? `${w.replace(/\./g, '/')}.py` : undefined;
      for (const path of at(module ?? w)) {
        const looksLikePath = quoted ? SCRIPT.test(w) || !!module : w.includes('/') || SCRIPT.test(w) || !!module;
        if (looksLikePath || isFileAt(path)) files.add(path);
      }
    }
  };
  scan(text, false);
  return { files, dirs };
}

/**
 * The directory a hook script lives in, when it is a folder of hooks (`.assistant/hooks/`,
 * `hooks/`, `.claude/hooks/`): what the script loads from there (a module, a list of rules)
 * guards as much as the script itself. Not the project, home or a system directory.
 */
function hookHome(script: string, projectDir: string, home: string): string | undefined {
  const dir = resolve(script, '..');
  if (dir === projectDir || dir === home || dir === '/') return undefined;
  const rel = relative(projectDir, dir);
  const inAssistant = !rel.startsWith('..') && /^(\.assistant|\.claude)(\/|$)/.test(rel);
  return inAssistant || /hook/i.test(dir.slice(dir.lastIndexOf('/') + 1)) ? dir : undefined;
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
  } catch {
    return out;
  }
  const dirs = [gitDir];
  try {
    const common = readFileSync(join(gitDir, 'commondir'), 'utf8').trim();
    if (common) dirs.push(resolve(gitDir, common));
  } catch {
    /* not a worktree */
  }
  // Submodules' git directories (`.git/modules/NAME`, nested too): their hooks and configuration, as the repository's own.
  const modules = (dir: string, depth: number) => {
    let names: string[] = [];
    try {
      names = readdirSync(join(dir, 'modules'));
    } catch {
      return;
    }
    for (const n of names.slice(0, 200)) {
      const m = join(dir, 'modules', n);
      if (existsSync(join(m, 'HEAD'))) dirs.push(m);
      if (depth < 4) modules(m, depth + 1);
    }
  };
  for (const d of [...dirs]) modules(d, 0);
  const hookDirs: string[] = [];
  for (const d of dirs) {
    out.push(
      { path: join(d, 'hooks'), dir: true, why: GIT_HOOKS },
      { path: join(d, 'config'), dir: false, why: GIT_CONFIG },
      { path: join(d, 'config.worktree'), dir: false, why: GIT_CONFIG },
    );
    hookDirs.push(join(d, 'hooks'));
    try {
      const m = /^\s*hookspath\s*=\s*(.+?)\s*$/im.exec(readFileSync(join(d, 'config'), 'utf8'));
      if (m) {
        const path = resolve(projectRoot, m[1].replace(/^"(.*)"$/, '$1').replace(/^~(?=\/)/, home));
        out.push({ path, dir: true, why: GIT_HOOKS });
        hookDirs.push(path);
      }
    } catch {
      /* no config */
    }
  }
  out.push(...frameworkConfigs(hookDirs, projectRoot));
  return out;
}

/**
 * Hook frameworks whose installed git hook runs what a project file says (`pre-commit` reads
 * `.pre-commit-config.yaml`, lefthook `lefthook.yml`, husky's hooks run `lint-staged`): a tell-tale
 * in a hook script, and the files it reads.
 */
const HOOK_FRAMEWORKS: ReadonlyArray<{ tell: RegExp; files: string[] }> = [
  { tell: /pre-commit\.com|pre_commit|INSTALL_PYTHON/, files: ['.pre-commit-config.yaml', '.pre-commit-config.yml'] },
  {
    tell: /lefthook/i,
    files: ['lefthook.yml', 'lefthook.yaml', '.lefthook.yml', '.lefthook.yaml', 'lefthook-local.yml', '.lefthook-local.yml'],
  },
  {
    tell: /lint-staged/,
    files: [
      '.lintstagedrc',
      '.lintstagedrc.json',
      '.lintstagedrc.yaml',
      '.lintstagedrc.yml',
      '.lintstagedrc.js',
      '.lintstagedrc.mjs',
      '.lintstagedrc.cjs',
      'lint-staged.config.js',
      'lint-staged.config.mjs',
      'lint-staged.config.cjs',
    ],
  },
  { tell: /overcommit/i, files: ['.overcommit.yml'] },
];

function frameworkConfigs(hookDirs: string[], projectRoot: string): GuardedPath[] {
  const out: GuardedPath[] = [];
  for (const dir of hookDirs) {
    let names: string[];
    try {
      names = readdirSync(dir);
    } catch {
      continue;
    }
    for (const name of names.filter((n) => !n.endsWith('.sample')).slice(0, 64)) {
      let text: string;
      try {
        text = readFileSync(join(dir, name), 'utf8').slice(0, 20_000);
      } catch {
        continue;
      }
      for (const f of HOOK_FRAMEWORKS) {
        if (!f.tell.test(text)) continue;
        for (const file of f.files)
          out.push({ path: join(projectRoot, file), dir: false, why: `what the git hook ${name} runs (${GIT_HOOKS.split(' (')[0]})` });
      }
    }
  }
  return out;
}

/**
 * The session's additions to the protected list (SPEC §11.16): the scripts every settings file's
 * hooks run, a `--settings FILE`, git's real directories. Reads the disk; computed at start and
 * when the user accepts changed settings.
 */
export function sessionGuards(
  projectRoot: string,
  home: string,
  hooks: ReadonlyArray<{ command: string }>,
  settingsFiles: readonly string[] = [],
): GuardedPath[] {
  const out = new Map<string, GuardedPath>();
  for (const h of hooks) {
    const { files, dirs } = hookFiles(h.command, projectRoot, home);
    for (const p of files) {
      if (p === projectRoot || p === home || isSystemProgram(p)) continue;
      out.set(p, { path: p, dir: false, why: HOOK });
      const folder = hookHome(p, projectRoot, home);
      if (folder && !isSystemProgram(`${folder}/`))
        out.set(folder, { path: folder, dir: true, why: `${HOOK} (the folder of hooks it is in)` });
    }
    // `cd .assistant/hooks && ./guard.sh`: the folder it runs in.
    for (const d of dirs)
      if (isDirAt(d) && hookHome(join(d, 'x'), projectRoot, home))
        out.set(d, { path: d, dir: true, why: `${HOOK} (the folder of hooks it is in)` });
  }
  for (const f of settingsFiles) if (isAbsolute(f)) out.set(resolve(f), { path: resolve(f), dir: false, why: SETTINGS });
  for (const g of gitGuards(projectRoot, home)) out.set(g.path, g);
  return [...out.values()];
}

/** `/usr/bin/jq` in a hook command is a program of the system, not a script the model could rewrite. */
const isSystemProgram = (p: string) => /^\/(usr\/)?(s?bin|lib|libexec)\//.test(p);
