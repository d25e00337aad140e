import { mayBeLong } from './options.ts';
import { RUNS_COMMANDS } from './wrappers.ts';
import type { Word } from './words.ts';

/**
 * Programs and options that make a command run code the splitter cannot see. Each returns the
 * reasons to ask (empty: nothing hidden). The list is what docs/permissions.md should name.
 */

/** Builtins that run a string or a file as shell code. */
const RUNS_CODE: Record<string, string> = {
  eval: 'eval runs a string as shell code',
  source: 'source runs a file as shell code',
  '.': '. (source) runs a file as shell code',
  coproc: 'coproc runs a command in the background with its own pipes',
  fc: 'fc re-runs commands from the history',
};

/**
 * Builtins that evaluate a name or number as arithmetic, where an array subscript runs `$(…)`
 * even from quoted text (`printf -v 'a[$(rm x)]'`, `[[ 'a[$(rm x)]' -eq 1 ]]`, `let`).
 */
const ARITHMETIC = new Set([
  'let',
  'declare',
  'typeset',
  'local',
  'export',
  'readonly',
  'printf',
  'read',
  'unset',
  'test',
  '[',
  '[[',
  'mapfile',
  'readarray',
  'wait',
]);
export const HIDDEN_SUBSTITUTION = /\$\(|`/;

/**
 * Variables that make programs run other code or find other programs: set in front of a
 * command, by `env`, `export` or a bare assignment, they can turn an allowed command into
 * anything (`PAGER='rm -rf ~' git log`, `PATH=./evil:$PATH ls`).
 */
const CODE_VARIABLES = new Set([
  'PATH',
  'HOME',
  'XDG_CONFIG_HOME',
  'BASH_ENV',
  'ENV',
  'SHELLOPTS',
  'BASHOPTS',
  'PS4',
  'PROMPT_COMMAND',
  'PAGER',
  'MANPAGER',
  'GIT_PAGER',
  'EDITOR',
  'VISUAL',
  'GIT_EDITOR',
  'GIT_SEQUENCE_EDITOR',
  'BROWSER',
  'GIT_SSH',
  'GIT_SSH_COMMAND',
  'GIT_EXTERNAL_DIFF',
  'GIT_EXEC_PATH',
  'GIT_ASKPASS',
  'SSH_ASKPASS',
  'GIT_PROXY_COMMAND',
  'GIT_DIR',
  'GIT_TEMPLATE_DIR',
  'GIT_CONFIG',
  'GIT_CONFIG_GLOBAL',
  'GIT_CONFIG_SYSTEM',
  'GIT_CONFIG_PARAMETERS',
  'GIT_CONFIG_COUNT',
  'GIT_WORK_TREE',
  'GIT_COMMON_DIR',
  'GIT_INDEX_FILE',
  'GIT_OBJECT_DIRECTORY',
  'GIT_ALTERNATE_OBJECT_DIRECTORIES',
  'NODE_OPTIONS',
  'NODE_PATH',
  'PYTHONPATH',
  'PYTHONSTARTUP',
  'PYTHONHOME',
  'PERL5OPT',
  'PERL5LIB',
  'PERLLIB',
  'RUBYOPT',
  'RUBYLIB',
  'LESSOPEN',
  'LESSCLOSE',
  'LESSKEY',
  'ZDOTDIR',
  'INPUTRC',
  'SHELL',
  // Start-up code and options of interpreters, compilers and build tools (`-javaagent:`, `-toolexec=`, a `.pth` file, a wrapper).
  'JAVA_TOOL_OPTIONS',
  '_JAVA_OPTIONS',
  'JDK_JAVA_OPTIONS',
  'JAVA_OPTS',
  'MAVEN_OPTS',
  'GRADLE_OPTS',
  'SBT_OPTS',
  'GOFLAGS',
  'RUSTC',
  'RUSTC_WRAPPER',
  'RUSTC_WORKSPACE_WRAPPER',
  'RUSTDOC',
  'CARGO_HOME',
  'PYTHONUSERBASE',
  'PYTHONEXECUTABLE',
  'PYTHONBREAKPOINT',
  'PERL5DB',
  'PERLDB_OPTS',
  'BUNDLE_GEMFILE',
  'GEM_HOME',
  'GEM_PATH',
  'PIP_INDEX_URL',
  'PIP_EXTRA_INDEX_URL',
  'PIP_CONFIG_FILE',
  'UV_INDEX_URL',
  'UV_EXTRA_INDEX_URL',
  'UV_CONFIG_FILE',
  'YARN_RC_FILENAME',
  'VIMINIT',
  'EXINIT',
  'MYVIMRC',
  'VIMRUNTIME',
  'GVIMINIT',
  'EMACSLOADPATH',
  'FCEDIT',
  'GCONV_PATH',
  'LOCPATH',
  'MANOPT',
  'LESS',
  // Configuration files that name programs to run (kubeconfig `exec`, AWS `credential_process`, ripgrep `--pre`, credential helpers).
  'KUBECONFIG',
  'AWS_CONFIG_FILE',
  'AWS_SHARED_CREDENTIALS_FILE',
  'DOCKER_CONFIG',
  'RIPGREP_CONFIG_PATH',
  'CURL_HOME',
  'WGETRC',
  'NPMRC',
  'GNUPGHOME',
  'CLOUDSDK_CONFIG',
  'TF_CLI_CONFIG_FILE',
  'HELM_PLUGINS',
  'KREW_ROOT',
  'GH_CONFIG_DIR',
  // Options and files a program takes from the environment as if given on its command line
  // (`TAR_OPTIONS=--to-command=…`, `MAKEFILES=evil.mk`, `PYTEST_PLUGINS=mod`).
  'MAKEFLAGS',
  'GNUMAKEFLAGS',
  'MFLAGS',
  'MAKEFILES',
  'ZIPOPT',
  'UNZIP',
  'UNZIPOPT',
  'ZIPINFO',
  'ZIPINFOOPT',
  'PARALLEL',
  'PYTEST_PLUGINS',
]);
const CODE_VARIABLE_PREFIXES = [
  'LD_',
  'DYLD_',
  'GIT_CONFIG_KEY_',
  'GIT_CONFIG_VALUE_',
  'BASH_FUNC_',
  'NPM_CONFIG_',
  'CARGO_TARGET_',
  'CARGO_BUILD_',
];
/** Names that say what they hold is a program, a command line or a program's options (`GH_PAGER`, `KUBE_EDITOR`, `SUDO_ASKPASS`, `FZF_DEFAULT_COMMAND`, `RSYNC_RSH`, `TAR_OPTIONS`, `FZF_DEFAULT_OPTS`). */
const CODE_VARIABLE_SUFFIXES =
  /(PAGER|EDITOR|VISUAL|ASKPASS|_COMMAND|_CMD|_RSH|_PROG|_PROGRAM|_HELPER|_WRAPPER|_LAUNCHER|_SHELL|_HOOK|_HOOKS|_PLUGINS?|_OPTIONS|_OPTS|_ADDOPTS)$/;

/**
 * Variables that make programs write a file they name (`GIT_TRACE=/tmp/t git status`,
 * `LESSHISTFILE`, `HISTFILE`, `SSLKEYLOGFILE`): set for a command, the file counts as written by
 * it, like `> FILE` (SPEC §11.5: a read-only program given one is no longer read-only).
 */
const WRITES_FILE =
  /^(GIT_TRACE\w*|LESSHISTFILE|HISTFILE|PYTHONHISTFILE|NODE_REPL_HISTORY|SQLITE_HISTORY|MYSQL_HISTFILE|PSQL_HISTORY|REDISCLI_HISTFILE|SSLKEYLOGFILE|GCOV_PREFIX|LLVM_PROFILE_FILE|MALLOC_TRACE|GIT_TRACE2_EVENT|GIT_TRACE2_PERF)$/;

/** The file a `NAME=value` makes programs write, or undefined. `GIT_TRACE=1` writes to standard error. */
export function writtenByVariable(name: string, value: string): string | undefined {
  if (!WRITES_FILE.test(name) || value === '' || value === '-') return undefined;
  if (name.startsWith('GIT_TRACE') && /^([0-9]|true|false|yes|no|on|off)$/i.test(value)) return undefined;
  return value;
}

/** A pager that only shows text (`GIT_PAGER=cat`, `PAGER='less -R'`): no `+cmd`, no shell, no other program. */
const PLAIN_PAGER = /^(?:cat|more|head|tail|true|less(?: +-[A-Za-z]+)*)?$/;
/** Node options that change limits or messages, never what code is loaded (`--require`, `--import`, `--inspect`, `--openssl-config` are not here). */
const PLAIN_NODE_OPTION =
  /^--(?:(?:max-old-space-size|max-semi-space-size|stack-size)=\d+|enable-source-maps|no-warnings|no-deprecation|throw-deprecation|trace-warnings|trace-deprecation|trace-uncaught|experimental-vm-modules|experimental-strip-types|no-experimental-strip-types|experimental-transform-types|preserve-symlinks|unhandled-rejections=(?:strict|warn|throw|none)|dns-result-order=(?:ipv4first|verbatim))$/;
/** Literal values of code variables that run nothing of their own, by variable (a data table: add a variable, add a test). */
const PLAIN_VALUES: Array<{ name: RegExp; plain: (value: string) => boolean }> = [
  { name: /^(?:PAGER|MANPAGER|GIT_PAGER|[A-Z0-9_]*_PAGER)$/, plain: (v) => PLAIN_PAGER.test(v.trim()) },
  {
    name: /^NODE_OPTIONS$/,
    plain: (v) =>
      v
        .trim()
        .split(/\s+/)
        .every((o) => o === '' || PLAIN_NODE_OPTION.test(o)),
  },
];

/** Why assigning `name` (to `value`, when known) could run hidden code; undefined when it cannot. */
export function assignmentReason(name: string, value: Word | undefined): string | undefined {
  const upper = name.toUpperCase();
  // `LESS=-FRX` sets display options; only `+cmd` (an initial command, `+!cmd` runs a shell) runs anything.
  if (name === 'LESS' && value && !value.dynamic && !/[+!]/.test(value.value)) return undefined;
  // `GIT_PAGER=cat git log`, `NODE_OPTIONS=--max-old-space-size=4096 npm test`: a known, literal value that runs nothing.
  if (value && !value.dynamic && PLAIN_VALUES.some((p) => p.name.test(name) && p.plain(value.value))) return undefined;
  if (CODE_VARIABLES.has(name) || CODE_VARIABLE_PREFIXES.some((p) => upper.startsWith(p)) || CODE_VARIABLE_SUFFIXES.test(upper)) {
    return `setting ${name} can make programs run other code`;
  }
  if (value && !value.dynamic && HIDDEN_SUBSTITUTION.test(value.value)) {
    return `the text assigned to ${name} holds a command substitution that bash may run later`;
  }
  return undefined;
}

/**
 * Long options with which git runs a command given on the command line. git's option parser
 * takes any unambiguous prefix (`--exe` is `--exec`, `--conf` is `--config`), so a prefix counts
 * too, unless it is exactly one of git's other options (`--to`, `--cc`, `--temp`, `--header`).
 */
const GIT_RUNS = [
  'upload-pack',
  'receive-pack',
  'exec',
  'extcmd',
  'open-files-in-pager',
  'sendmail-cmd',
  'smtp-server',
  'to-cmd',
  'cc-cmd',
  'header-cmd',
  'template',
  'config',
  'config-env',
  'exec-path',
];
const GIT_EXACT = ['to', 'cc', 'temp', 'header', 'contains', 'c'];
const gitRuns = (a: string) => GIT_RUNS.find((n) => mayBeLong(a, n, GIT_EXACT));

function gitReasons(args: string[]): string[] {
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a === '-c' || mayBeLong(a, 'config-env'))
      return [`git ${a} sets configuration that can run other programs (core.pager, alias.x=!…)`];
    if (/^-c./.test(a)) return [`git ${a} sets configuration that can run other programs`];
    if (mayBeLong(a, 'exec-path')) return ['git --exec-path changes where git finds the programs it runs'];
    if (['-C', '--git-dir', '--work-tree', '--namespace', '--super-prefix', '--attr-source', '--list-cmds'].includes(a)) {
      i++;
      continue;
    }
    if (!a.startsWith('-')) break;
    const runs = gitRuns(a);
    if (runs) return [`git ${a} (--${runs}) runs another program or sets configuration`];
  }
  const sub = args[i];
  const rest = args.slice(i + 1);
  const why = (what: string) => [`git ${sub} ${what}`];
  if (sub === 'filter-branch') return why('runs shell commands given as filters');
  if (sub === 'bisect' && rest[0] === 'run') return why('run executes a command for each step');
  if (sub === 'submodule' && rest.includes('foreach')) return why('foreach runs a shell command in each submodule');
  if (sub === 'instaweb' || sub === 'web--browse') return why('starts a web server or browser');
  for (const a of rest) {
    if (a === '--') break;
    const runs = gitRuns(a);
    if (runs) return why(`${a} (--${runs}) runs another program or sets configuration`);
  }
  if (sub === 'rebase' && rest.some((a) => /^-[a-zA-Z]*x/.test(a))) return why('-x runs a shell command after each commit');
  if (sub === 'difftool' && rest.some((a) => /^-[a-zA-Z]*x/.test(a))) return why('-x runs another program');
  if (sub === 'grep' && rest.some((a) => /^-[a-zA-Z]*O/.test(a))) return why('-O opens files with another program');
  if (sub === 'clone' && rest.some((a) => a === '-u' || a === '-c' || /^-[a-zA-Z]*[uc]/.test(a)))
    return why('-u / -c sets a program or configuration for the new repository');
  if (sub === 'config' && gitConfigWrites(rest)) return why('writes settings, some of which run programs (core.pager, alias.x=!…)');
  if (sub === 'help' && rest.some((a) => /^-[a-zA-Z]*w/.test(a) || mayBeLong(a, 'web'))) return why('--web opens a browser');
  return [];
}

/** Does `git config …` (the words after `config`) write a setting? */
export function gitConfigWrites(rest: string[]): boolean {
  const reads = [
    '--get',
    '--get-all',
    '--get-regexp',
    '--get-urlmatch',
    '--get-color',
    '--get-colorbool',
    '-l',
    '--list',
    '--unset',
    '--unset-all',
    '--remove-section',
    '--rename-section',
    '--show-origin',
    '--show-scope',
    '--name-only',
  ];
  if (['get', 'list', 'unset', 'remove-section', 'rename-section'].includes(rest[0] ?? '')) return false;
  if (rest.some((a) => ['--edit', '-e', '--add', '--replace-all'].includes(a))) return true;
  if (rest.some((a) => reads.includes(a))) return false;
  const valueOptions = ['-f', '--file', '--blob', '--type', '--default', '--comment'];
  const positional = rest.filter((a, i) => !a.startsWith('-') && !valueOptions.includes(rest[i - 1] ?? ''));
  return rest[0] === 'set' || positional.length >= 2;
}

/** tar's options that run another program (argp takes unambiguous prefixes too; `--checkpoint` alone is only a count). */
const TAR_RUNS = [
  'to-command',
  'checkpoint-action',
  'use-compress-program',
  'info-script',
  'new-volume-script',
  'rsh-command',
  'rmt-command',
];
const TAR_EXACT = ['checkpoint', 'to-stdout'];

function tarReasons(args: string[]): string[] {
  for (const [i, a] of args.entries()) {
    if (a === '--') break;
    if (a.startsWith('--')) {
      const runs = TAR_RUNS.find((n) => mayBeLong(a, n, TAR_EXACT));
      if (runs) return [`tar ${a} (--${runs}) runs another program`];
    } else if ((a.startsWith('-') || i === 0) && /^-?[A-Za-z]*[IF]/.test(a)) {
      return [`tar ${a}: -I / -F run another program`];
    }
  }
  return [];
}

/**
 * npm's configuration given as options, as `npm_config_*` variables give it: the shell scripts run with, options
 * of the node it starts, another configuration file (`npm test --script-shell=./x`).
 */
const NPM_CODE_CONFIG = ['script-shell', 'node-options', 'userconfig', 'globalconfig', 'shell', 'rcfile'];
function npmConfigCode(program: string, args: string[]): string[] {
  for (const a of args) {
    if (a === '--') break;
    const name = NPM_CODE_CONFIG.find((n) => a.startsWith('--') && a.slice(2).split('=')[0] === n);
    if (name) return [`${program} ${a} sets configuration that runs other programs (--${name})`];
  }
  return [];
}

/** pip's package index given as an option, as `PIP_INDEX_URL` gives it: packages from there run their build code. */
function pipIndex(args: string[]): string[] {
  const a = args.find((x) => x === '-i' || /^-i./.test(x) || mayBeLong(x, 'index-url') || mayBeLong(x, 'extra-index-url'));
  return a ? [`pip ${a} installs packages from another index, whose build code runs`] : [];
}

/** `read PATH`, `printf -v PATH …`: builtins that set the variables they name. */
function setsNames(names: string[]): string[] {
  return names.flatMap((n) => assignmentReason(n, undefined) ?? []);
}
const operands = (args: string[]) => args.filter((a) => !a.startsWith('-'));

const PROGRAM_CHECKS: Record<string, (args: string[]) => string[]> = {
  read: (args) => setsNames(operands(args)),
  mapfile: (args) => [
    ...setsNames(operands(args)),
    ...(args.some((a) => /^-[a-zA-Z]*C/.test(a)) ? ['mapfile -C runs a callback as shell code'] : []),
  ],
  readarray: (args) => [
    ...setsNames(operands(args)),
    ...(args.some((a) => /^-[a-zA-Z]*C/.test(a)) ? ['readarray -C runs a callback as shell code'] : []),
  ],
  sort: (args) => {
    const a = args.find((x) => mayBeLong(x, 'compress-program', ['check']));
    return a ? [`sort ${a} runs another program`] : [];
  },
  getopts: (args) => setsNames(operands(args).slice(1, 2)),
  printf: (args) => setsNames(args.flatMap((a, i) => (a === '-v' ? [args[i + 1] ?? ''] : /^-v./.test(a) ? [a.slice(2)] : []))),
  git: gitReasons,
  tar: tarReasons,
  rg: (args) => {
    const a = args.find((x) => /^--(pre|hostname-bin)(=|$)/.test(x));
    return a ? [`rg ${a} runs another program on each file`] : [];
  },
  rsync: (args) => {
    for (const [i, a] of args.entries()) {
      if (mayBeLong(a, 'rsync-path')) return [`rsync ${a} runs another program`];
      let shell: string | undefined;
      if (a === '-e' || (mayBeLong(a, 'rsh') && !a.includes('='))) shell = args[i + 1];
      else if (mayBeLong(a, 'rsh')) shell = a.slice(a.indexOf('=') + 1);
      else if (/^-[a-zA-Z]*e/.test(a) && !a.startsWith('--')) shell = a.slice(a.indexOf('e') + 1) || args[i + 1];
      if (shell !== undefined && shell !== 'ssh') return [`rsync ${a} runs another program as its remote shell`];
    }
    return [];
  },
  man: (args) => {
    const a = args.find((x) => /^-[a-zA-Z]*[PH]/.test(x) || mayBeLong(x, 'pager') || mayBeLong(x, 'html'));
    return a ? [`man ${a} runs another program`] : [];
  },
  zip: (args) => {
    const a = args.find((x) => x === '-TT' || /^-[a-zA-Z]*TT/.test(x) || mayBeLong(x, 'unzip-command'));
    return a ? [`zip ${a} runs another program to test the archive`] : [];
  },
  sdiff: (args) => {
    const a = args.find((x) => mayBeLong(x, 'diff-program', ['d']));
    return a ? [`sdiff ${a} runs another program`] : [];
  },
  diff3: (args) => {
    const a = args.find((x) => mayBeLong(x, 'diff-program', ['d']));
    return a ? [`diff3 ${a} runs another program`] : [];
  },
  npx: (args) => [...npmConfigCode('npx', args), ...npmCall(args)],
  npm: (args) => [
    ...npmConfigCode('npm', args),
    ...(['exec', 'x'].includes(args.find((a) => !a.startsWith('-')) ?? '') ? npmCall(args) : []),
  ],
  pnpm: (args) => [
    ...npmConfigCode('pnpm', args),
    ...(args[0] === 'exec' && args.some((a) => a === '-c' || mayBeLong(a, 'shell-mode'))
      ? ['pnpm exec --shell-mode runs a shell string']
      : []),
  ],
  yarn: (args) => npmConfigCode('yarn', args),
  pip: pipIndex,
  pip3: pipIndex,
  cargo: (args) => {
    const a = args.find((x) => x === '--config' || x.startsWith('--config='));
    return a ? [`cargo ${a} sets configuration that can run other programs (a runner, a rustc wrapper)`] : [];
  },
  go: (args) => {
    const a = args.find((x) => /^--?(exec|toolexec|vettool)(=|$)/.test(x) || x === '-exec');
    return a ? [`go ${a} runs another program`] : [];
  },
  make: (args) => {
    const a = args.find((x) => x === '-E' || /^-E./.test(x) || mayBeLong(x, 'eval'));
    if (a) return [`make ${a} evaluates text as a makefile, where $(shell …) runs`];
    // `make test SHELL=./x`: a variable given on the command line that names the program recipes run with.
    const v = args.find((x) => /^(SHELL|\.SHELLFLAGS|MAKESHELL|MAKE|MAKEFLAGS|MAKEFILES|\.DEFAULT_GOAL)\s*[:+?!]?=/.test(x));
    return v ? [`make ${v} changes the program recipes run with or the makefiles read`] : [];
  },
  gpg: (args) => {
    const a = args.find((x) => mayBeLong(x, 'photo-viewer') || mayBeLong(x, 'exec-path'));
    return a ? [`gpg ${a} runs another program`] : [];
  },
  ssh: sshReasons,
  scp: sshReasons,
  sftp: sshReasons,
  trap: (args) => {
    const ops = args.filter((a) => !/^-[lpP]+$/.test(a));
    return ops.length >= 2 && ops[0] !== '-' && ops[0] !== '' ? ['trap sets a command that runs later'] : [];
  },
  alias: (args) => (args.some((a) => a.includes('=')) ? ['alias defines text that runs as a command later'] : []),
  hash: (args) => (args.some((a) => /^-[a-zA-Z]*p/.test(a)) ? ['hash -p changes which file a command name runs'] : []),
  enable: (args) => (args.some((a) => /^-[a-zA-Z]*f/.test(a)) ? ['enable -f loads a builtin from a shared library'] : []),
};

/** `npx -c 'cmd'`, `npm exec --call 'cmd'`: a shell string. */
function npmCall(args: string[]): string[] {
  const a = args.find((x) => x === '-c' || /^-c./.test(x) || mayBeLong(x, 'call'));
  return a ? [`${a} runs a shell string`] : [];
}

function sshReasons(args: string[]): string[] {
  for (const [i, a] of args.entries()) {
    const option = a === '-o' ? (args[i + 1] ?? '') : a.startsWith('-o') ? a.slice(2) : undefined;
    if (option !== undefined && /^\s*(proxycommand|localcommand|permitlocalcommand|knownhostscommand|match)/i.test(option)) {
      return [`-o ${option} runs a local command`];
    }
    if (/^-[FS]/.test(a)) return [`${a} names a configuration file or program that can run local commands`];
  }
  return [];
}

/** Reasons to ask about the final program (after wrappers) with these arguments. */
export function programReasons(program: string, args: Word[], hasArgs: boolean): string[] {
  const reasons: string[] = [];
  if (Object.hasOwn(RUNS_CODE, program)) reasons.push(RUNS_CODE[program]);
  if (Object.hasOwn(RUNS_COMMANDS, program)) reasons.push(RUNS_COMMANDS[program]);
  if (program === 'exec' && hasArgs) reasons.push('exec replaces the shell with another command');
  if (ARITHMETIC.has(program) && args.some((a) => !a.dynamic && HIDDEN_SUBSTITUTION.test(a.value))) {
    reasons.push(`${program} may evaluate quoted text as arithmetic, where $(…) runs`);
  }
  const check = Object.hasOwn(PROGRAM_CHECKS, program) ? PROGRAM_CHECKS[program] : undefined;
  if (check) reasons.push(...check(args.map((a) => (a.dynamic ? a.raw : a.value))));
  return reasons;
}

/** Shells whose `-c` script is bash syntax, looked into when literal. */
export const SHELLS = new Set(['sh', 'bash', 'dash', 'zsh', 'ksh', 'mksh', 'ash', 'rbash', 'yash', 'posh', 'lksh']);
/** Shells with another syntax: their scripts cannot be analysed. */
export const OTHER_SHELLS = new Set(['fish', 'csh', 'tcsh', 'pwsh', 'nu', 'xonsh', 'elvish']);

interface ShellCall {
  /** The `-c` script. */
  script?: Word;
  /** The script file operand (without -c). */
  file?: Word;
  /** No script operand: it reads commands from its standard input. */
  readsStdin: boolean;
  reason?: string;
}

/** How a shell is invoked: `bash -euo pipefail -c '…' arg0 …`, `sh script.sh`, `bash -s`. */
export function shellCall(program: string, args: Word[]): ShellCall {
  let dashC = false;
  let dashS = false;
  let i = 0;
  for (; i < args.length; i++) {
    const a = args[i];
    if (a.dynamic) {
      return {
        readsStdin: false,
        reason: dashC
          ? `${program} -c runs ${a.raw}, which is not known before the command runs`
          : `${program}: ${a.raw} is not known before the command runs, so what ${program} runs is not known`,
      };
    }
    const v = a.value;
    if (v === '--' || v === '-') {
      i++;
      break;
    }
    if (v.startsWith('--')) {
      if (/^--(rcfile|init-file)/.test(v)) return { readsStdin: false, reason: `${program} ${v} runs a start-up file` };
      continue;
    }
    if (!/^[-+]./.test(v)) break;
    for (const c of v.slice(1)) {
      if (c === 'c') dashC = true;
      else if (c === 's') dashS = true;
      else if (c === 'o' || c === 'O') i++; // -o pipefail: the next word is the option's value
    }
  }
  const operand = args[i];
  if (dashC) return operand ? { script: operand, readsStdin: false } : { readsStdin: false, reason: `${program} -c has no script` };
  // With -s the operands are positional parameters and the script comes from standard input.
  return operand && !dashS ? { file: operand, readsStdin: false } : { readsStdin: true };
}
