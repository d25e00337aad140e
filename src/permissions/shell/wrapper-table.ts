import type { OptionSpec } from './options.ts';

/**
 * The wrappers, as data (SPEC §5: the wrapped program is what the rules see): the options each
 * takes, the words between its options and the command, the options that stop it, make it run a
 * shell string or write a file. Looked through by wrappers.ts.
 */

/** A wrapper described as data. */
export interface WrapperSpec {
  options: OptionSpec;
  /** Words between the options and the command (`chrt PRIO cmd`, `flock FILE cmd`, `timeout DURATION cmd`). */
  operands?: number;
  /** Options with which it runs nothing else (queries, `-p PID` forms): it is then itself the program. */
  stops?: string[];
  /** Options that make what it runs unknowable, and why. */
  unknown?: Record<string, string>;
  /** Options whose value is a shell command it runs (`su -c`, `script -c`, `flock -c`). */
  scriptOptions?: string[];
  /** Options that run the command in another directory (`env -C DIR`): its relative names are not known. */
  chdirOptions?: string[];
  /** Options whose value is a file it writes (`strace -o`, `time -o`). */
  writeOptions?: string[];
  /** Options whose value is a file it reads. */
  readOptions?: string[];
  /** `NAME=value` words before the command (`env`, `sudo`). */
  assignments?: boolean;
  /** The command gets arguments only known at run time. */
  runtimeArgs?: boolean;
  /** It joins its operands into one shell command (`watch rm x` runs `sh -c 'rm x'`). */
  joins?: boolean;
  /** With no command it starts a shell, which runs what its standard input holds. */
  shellWhenEmpty?: boolean;
  /** The operands before the command are files it creates or writes (`lockf FILE`). */
  operandWrites?: boolean;
}

const W = (options: OptionSpec, more: Omit<WrapperSpec, 'options'> = {}): WrapperSpec => ({ options, ...more });
const NONE: OptionSpec = {};
/** Short and long forms of the common `--help`/`--version`. */
const HV = ['help', 'version'];

/**
 * The wrappers. Options are GNU getopt style (`parseOptions`): unknown options make the command
 * unanalysable, so a wrapper is never misread as running a word that is an option's value.
 */
export const WRAPPERS: Record<string, WrapperSpec> = {
  timeout: W(
    { shortArg: 'sk', shortFlag: 'v', longArg: ['signal', 'kill-after'], longFlag: ['preserve-status', 'foreground', 'verbose', ...HV] },
    { operands: 1 },
  ),
  gtimeout: W(
    { shortArg: 'sk', shortFlag: 'v', longArg: ['signal', 'kill-after'], longFlag: ['preserve-status', 'foreground', 'verbose', ...HV] },
    { operands: 1 },
  ),
  time: W(
    { shortArg: 'fo', shortFlag: 'pvqa', longArg: ['format', 'output'], longFlag: ['portability', 'verbose', 'quiet', 'append', ...HV] },
    { writeOptions: ['-o', '--output'] },
  ),
  nice: W({ shortArg: 'n', longArg: ['adjustment'], longFlag: HV, numeric: true }),
  nohup: W({ longFlag: HV }),
  stdbuf: W({ shortArg: 'ioe', longArg: ['input', 'output', 'error'], longFlag: HV }),
  setsid: W({ shortFlag: 'cfw', longFlag: ['ctty', 'fork', 'wait', ...HV] }),
  noglob: W(NONE),
  nocorrect: W(NONE),
  builtin: W(NONE),
  eatmydata: W(NONE),
  nocache: W(NONE),
  chronic: W({ shortFlag: 've' }),
  ifne: W({ shortFlag: 'n' }),
  unbuffer: W({ shortFlag: 'p' }),
  catchsegv: W(NONE),
  linux32: W(
    {
      shortFlag: 'vRFZLXBIST3',
      longFlag: [
        'verbose',
        'addr-no-randomize',
        'fdpic-funcptrs',
        'mmap-page-zero',
        'addr-compat-layout',
        'read-implies-exec',
        '32bit',
        'short-inode',
        'whole-seconds',
        'sticky-timeouts',
        '3gb',
        'uname-2.6',
        ...HV,
      ],
    },
    { shellWhenEmpty: true },
  ),
  command: W({ shortFlag: 'pvV' }, { stops: ['-v', '-V'] }),
  ionice: W(
    { shortArg: 'cnpPu', shortFlag: 't', longArg: ['class', 'classdata', 'pid', 'pgid', 'uid'], longFlag: ['ignore', ...HV] },
    { stops: ['-p', '-P', '-u', '--pid', '--pgid', '--uid'] },
  ),
  busybox: W({ longFlag: ['list', 'list-full', 'install', 'help'] }, { stops: ['--list', '--list-full', '--install', '--help'] }),
  toybox: W({ longFlag: HV }, { stops: ['--help', '--version'] }),
  env: W(
    {
      shortArg: 'uCS',
      shortFlag: 'i0v',
      dash: true,
      longArg: ['unset', 'chdir', 'split-string'],
      longFlag: ['ignore-environment', 'null', 'debug', 'list-signal-handling', ...HV],
      longOptional: ['block-signal', 'default-signal', 'ignore-signal'],
    },
    {
      assignments: true,
      chdirOptions: ['-C', '--chdir'],
      unknown: {
        '-S': 'env -S splits a string into a command line at run time',
        '--split-string': 'env -S splits a string into a command line at run time',
      },
    },
  ),
  'cross-env': W(NONE, { assignments: true }),
  sudo: W(
    {
      shortArg: 'ugCDprtTURh',
      shortFlag: 'AbEHknPSBNiselvKV',
      longArg: ['user', 'group', 'close-from', 'chdir', 'prompt', 'role', 'type', 'command-timeout', 'other-user', 'chroot', 'host'],
      longFlag: [
        'askpass',
        'background',
        'set-home',
        'non-interactive',
        'preserve-groups',
        'stdin',
        'bell',
        'login',
        'shell',
        'edit',
        'list',
        'validate',
        'reset-timestamp',
        'remove-timestamp',
        ...HV,
      ],
      longOptional: ['preserve-env'],
    },
    {
      assignments: true,
      stops: ['-l', '-v', '-K', '-V', '--list', '--validate', '--remove-timestamp', '--version', '--help'],
      unknown: {
        '-i': 'sudo -i runs a login shell',
        '-s': 'sudo -s runs a shell',
        '--login': 'sudo -i runs a login shell',
        '--shell': 'sudo -s runs a shell',
        '-e': 'sudo -e edits files as another user',
        '--edit': 'sudo -e edits files as another user',
        '-D': 'sudo -D runs the command in another directory',
        '--chdir': 'sudo -D runs the command in another directory',
        '-R': 'sudo -R runs the command in another root',
        '--chroot': 'sudo -R runs the command in another root',
      },
    },
  ),
  doas: W({ shortArg: 'uC', shortFlag: 'nsL' }, { stops: ['-C', '-L'], unknown: { '-s': 'doas -s runs a shell' } }),
  pkexec: W(
    { longArg: ['user'], longFlag: ['disable-internal-agent', 'keep-cwd', ...HV] },
    { stops: ['--help', '--version'], shellWhenEmpty: true },
  ),
  run0: W(
    {
      shortArg: 'u',
      longArg: ['user', 'group', 'nice', 'chdir', 'setenv', 'unit', 'property', 'description', 'slice', 'background'],
      longFlag: ['no-ask-password', 'machine', ...HV],
    },
    {
      shellWhenEmpty: true,
      unknown: {
        '--chdir': 'run0 --chdir runs the command in another directory',
        '--setenv': 'run0 --setenv sets variables for the command',
      },
    },
  ),
  chrt: W(
    {
      shortArg: 'TPD',
      shortFlag: 'abdefiorRvmphV',
      longArg: ['sched-runtime', 'sched-period', 'sched-deadline'],
      longFlag: ['all-tasks', 'batch', 'deadline', 'fifo', 'idle', 'other', 'rr', 'reset-on-fork', 'verbose', 'max', 'pid', ...HV],
    },
    { operands: 1, stops: ['-p', '--pid', '-m', '--max'] },
  ),
  taskset: W({ shortFlag: 'acphV', longFlag: ['all-tasks', 'cpu-list', 'pid', ...HV] }, { operands: 1, stops: ['-p', '--pid'] }),
  flock: W({
    shortArg: 'Ewc',
    shortFlag: 'sxunoFvhV',
    longArg: ['conflict-exit-code', 'timeout', 'wait', 'command'],
    longFlag: ['shared', 'exclusive', 'unlock', 'nonblock', 'nb', 'close', 'no-fork', 'verbose', ...HV],
  }),
  lockf: W({ shortArg: 't', shortFlag: 'knsw' }, { operands: 1, operandWrites: true }),
  unshare: W(
    {
      shortArg: 'SGRw',
      shortFlag: 'fcrhV',
      shortOptional: 'muinpUCT',
      longArg: [
        'setuid',
        'setgid',
        'root',
        'wd',
        'propagation',
        'setgroups',
        'map-user',
        'map-group',
        'map-users',
        'map-groups',
        'monotonic',
        'boottime',
      ],
      longFlag: ['fork', 'map-root-user', 'map-current-user', 'map-auto', 'keep-caps', 'load-interp', ...HV],
      longOptional: ['mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup', 'time', 'mount-proc', 'kill-child', 'mount-binfmt'],
    },
    {
      shellWhenEmpty: true,
      unknown: {
        '-R': 'unshare -R runs the command in another root',
        '--root': 'unshare -R runs the command in another root',
        '-w': 'unshare -w runs the command in another directory',
        '--wd': 'unshare -w runs the command in another directory',
      },
    },
  ),
  nsenter: W(
    {
      shortArg: 'tSGwrZ',
      shortOptional: 'muinpUCTa',
      shortFlag: 'FecPhV',
      longArg: ['target', 'setuid', 'setgid', 'wd', 'root', 'env'],
      longOptional: ['mount', 'uts', 'ipc', 'net', 'pid', 'user', 'cgroup', 'time', 'all'],
      longFlag: ['no-fork', 'preserve-credentials', 'follow-context', 'join-cgroup', ...HV],
    },
    {
      shellWhenEmpty: true,
      unknown: {
        '-r': 'nsenter -r runs the command in another root',
        '--root': 'nsenter -r runs the command in another root',
        '-w': 'nsenter -w runs the command in another directory',
        '--wd': 'nsenter -w runs the command in another directory',
      },
    },
  ),
  setpriv: W(
    {
      shortFlag: 'dhV',
      longArg: [
        'ruid',
        'euid',
        'rgid',
        'egid',
        'reuid',
        'regid',
        'groups',
        'inh-caps',
        'ambient-caps',
        'bounding-set',
        'securebits',
        'pdeathsig',
        'selinux-label',
        'apparmor-profile',
        'landlock-access',
        'landlock-rule',
        'seccomp-filter',
      ],
      longFlag: ['dump', 'clear-groups', 'keep-groups', 'init-groups', 'nnp', 'no-new-privs', 'reset-env', ...HV],
    },
    { stops: ['-d', '--dump'] },
  ),
  prlimit: W(
    {
      shortArg: 'po',
      shortOptional: 'cdefilmnqrstuvxy',
      shortFlag: 'hV',
      longArg: ['pid', 'output'],
      longOptional: [
        'as',
        'core',
        'cpu',
        'data',
        'fsize',
        'locks',
        'memlock',
        'msgqueue',
        'nice',
        'nofile',
        'nproc',
        'rss',
        'rtprio',
        'rttime',
        'sigpending',
        'stack',
      ],
      longFlag: ['noheadings', 'raw', 'verbose', ...HV],
    },
    { stops: ['-p', '--pid'] },
  ),
  runuser: W(
    {
      shortArg: 'ugGcsw',
      shortFlag: 'lmpPhV',
      longArg: ['user', 'group', 'supp-group', 'command', 'session-command', 'shell', 'whitelist-environment'],
      longFlag: ['login', 'preserve-environment', 'pty', ...HV],
    },
    { scriptOptions: ['-c', '--command', '--session-command'] },
  ),
  su: W(
    {
      shortArg: 'cgGsw',
      shortFlag: 'flmpPhV',
      dash: true,
      longArg: ['command', 'session-command', 'group', 'supp-group', 'shell', 'whitelist-environment'],
      longFlag: ['login', 'preserve-environment', 'pty', ...HV],
    },
    { scriptOptions: ['-c', '--command', '--session-command'] },
  ),
  sg: W(NONE),
  fakeroot: W(
    { shortArg: 'lisb', shortFlag: 'uhv', longArg: ['lib', 'faked'], longFlag: ['unknown-is-real', ...HV] },
    { shellWhenEmpty: true, writeOptions: ['-s'], readOptions: ['-i'] },
  ),
  fakechroot: W(
    {
      shortArg: 'lcdse',
      shortFlag: 'hv',
      longArg: ['lib', 'config-dir', 'environment', 'elfloader'],
      longFlag: ['use-system-libs', ...HV],
    },
    { shellWhenEmpty: true },
  ),
  firejail: W({ lenient: 'long' }, { shellWhenEmpty: true }),
  strace: W(
    {
      shortArg: 'abeIoOpPsSuUEX',
      shortFlag: 'cCdDfFhiknqrtTvVwxyzZ',
      longArg: [
        'output',
        'attach',
        'trace',
        'signal',
        'status',
        'string-limit',
        'user',
        'env',
        'summary-columns',
        'summary-sort-by',
        'trace-path',
        'detach-on',
        'const-print-style',
        'decode-fds',
        'absolute-timestamps',
        'relative-timestamps',
        'syscall-times',
        'instruction-pointer',
        'stack-traces',
        'seccomp-bpf',
        'timestamps',
        'quiet',
        'follow-forks',
        'output-separately',
        'successful-only',
        'failed-only',
        'columns',
        'argv0',
        'kill-on-exit',
        'decode-pids',
        'secontext',
      ],
      longFlag: ['summary-only', 'summary', 'summary-wall-clock', 'daemonize', 'debug', 'no-abbrev', 'raw', 'verbose', 'tips', ...HV],
    },
    {
      writeOptions: ['-o', '--output'],
      stops: ['-p', '--attach'],
      unknown: { '-E': 'strace -E sets variables for the command', '--env': 'strace -E sets variables for the command' },
    },
  ),
  ltrace: W(
    {
      shortArg: 'aAeFlLnopsuwxDIX',
      shortFlag: 'bcCfhiSrtTV',
      longArg: ['output', 'library', 'align', 'indent'],
      longFlag: ['demangle', 'no-signals', ...HV],
    },
    { writeOptions: ['-o', '--output'], stops: ['-p'] },
  ),
  script: W(
    {
      shortArg: 'cmoITOBE',
      shortOptional: 't',
      shortFlag: 'aefqhVw',
      longArg: ['command', 'log-io', 'log-in', 'log-out', 'log-timing', 'logging-format', 'output-limit', 'echo'],
      longOptional: ['timing'],
      longFlag: ['append', 'return', 'flush', 'force', 'quiet', ...HV],
    },
    { scriptOptions: ['-c', '--command'], writeOptions: ['-I', '-O', '-B', '-T', '--log-io', '--log-in', '--log-out', '--log-timing'] },
  ),
  watch: W(
    {
      shortArg: 'nq',
      shortOptional: 'd',
      shortFlag: 'bceghptrwxC',
      longArg: ['interval', 'equexit'],
      longOptional: ['differences'],
      longFlag: ['beep', 'color', 'no-color', 'errexit', 'exec', 'chgexit', 'no-title', 'no-wrap', 'precise', 'no-rerun', ...HV],
    },
    { joins: true },
  ),
  caffeinate: W({ shortArg: 'tw', shortFlag: 'disum' }),
  cgexec: W({ shortArg: 'g', longFlag: ['sticky'] }),
  numactl: W(
    {
      shortArg: 'CcNmipP',
      shortFlag: 'alHsS',
      longArg: ['cpunodebind', 'physcpubind', 'membind', 'interleave', 'preferred', 'preferred-many', 'weighted-interleave', 'balancing'],
      longFlag: [
        'all',
        'localalloc',
        'hardware',
        'show',
        'huge',
        'touch',
        'strict',
        'shmid',
        'length',
        'offset',
        'shmmode',
        'file',
        'shm',
        'version',
      ],
    },
    { stops: ['-H', '-s', '--hardware', '--show'] },
  ),
  setarch: W(
    {
      shortFlag: 'vRFZLXBIST3h',
      longFlag: [
        'verbose',
        'addr-no-randomize',
        'fdpic-funcptrs',
        'mmap-page-zero',
        'addr-compat-layout',
        'read-implies-exec',
        '32bit',
        'short-inode',
        'whole-seconds',
        'sticky-timeouts',
        '3gb',
        '4gb',
        'uname-2.6',
        'list',
        ...HV,
      ],
    },
    { operands: 1, shellWhenEmpty: true, stops: ['--list'] },
  ),
  'dbus-run-session': W(
    { longArg: ['config-file', 'dbus-daemon'], longFlag: HV },
    { unknown: { '--dbus-daemon': 'dbus-run-session --dbus-daemon runs another program' } },
  ),
  'xvfb-run': W({
    shortArg: 'fnpsewl',
    shortFlag: 'ah',
    longArg: ['auth-file', 'server-num', 'xauth-protocol', 'server-args', 'error-file', 'wait'],
    longFlag: ['auto-servernum', 'listen-tcp', 'help'],
  }),
  'ssh-agent': W({ shortArg: 'aEOPt', shortFlag: 'cDdksx' }, { stops: ['-k', '-D'] }),
  torsocks: W(
    {
      shortArg: 'upaP',
      shortFlag: 'diqh',
      longArg: ['user', 'pass', 'address', 'port'],
      longFlag: ['isolate', 'quiet', 'debug', 'shell', 'help', 'version'],
    },
    { shellWhenEmpty: true },
  ),
  proxychains: W({ shortArg: 'f', shortFlag: 'q' }),
  proxychains4: W({ shortArg: 'f', shortFlag: 'q' }),
  trickle: W({ shortArg: 'udwtlnL', shortFlag: 'sVv' }),
  cpulimit: W(
    {
      shortArg: 'lpe',
      shortFlag: 'zkivh',
      longArg: ['limit', 'pid', 'exe', 'cpu'],
      longFlag: ['lazy', 'kill', 'include-children', 'verbose', 'help'],
    },
    { stops: ['-p', '-e', '--pid', '--exe'] },
  ),
  faketime: W({ shortArg: 'mp', shortFlag: 'fh', longArg: ['exclude-monotonic'], longFlag: ['date-prog'] }, { operands: 1 }),
  rlwrap: W({ shortArg: 'abCDefFgHlmoOpPqsStwz', shortFlag: 'AcEhinNRrUv' }),
  valgrind: W({ lenient: 'long', shortFlag: 'qvhd' }),
  'systemd-inhibit': W({ longArg: ['what', 'who', 'why', 'mode'], longFlag: ['list', ...HV] }, { stops: ['--list'] }),
  'aws-vault': W(NONE),
  xargs: W(
    {
      shortArg: 'EIdLnPsa',
      shortFlag: '0rtpxo',
      shortOptional: 'ile',
      longArg: ['arg-file', 'delimiter', 'max-args', 'max-procs', 'max-chars', 'process-slot-var'],
      longFlag: ['null', 'no-run-if-empty', 'verbose', 'interactive', 'exit', 'open-tty', 'show-limits', ...HV],
      longOptional: ['replace', 'eof', 'max-lines'],
    },
    { runtimeArgs: true, readOptions: ['-a', '--arg-file'] },
  ),
};

const UV_RUN: OptionSpec = {
  shortArg: 'pPiCf',
  shortFlag: 'mqvnUsh',
  longArg: [
    'with',
    'with-editable',
    'with-requirements',
    'python',
    'project',
    'directory',
    'package',
    'extra',
    'group',
    'only-group',
    'no-group',
    'env-file',
    'index',
    'default-index',
    'index-url',
    'extra-index-url',
    'find-links',
    'config-file',
    'cache-dir',
    'upgrade-package',
    'reinstall-package',
    'color',
    'python-preference',
    'link-mode',
    'prerelease',
    'resolution',
    'exclude-newer',
    'keyring-provider',
    'index-strategy',
    'no-binary-package',
    'no-build-package',
    'config-setting',
  ],
  longFlag: [
    'module',
    'all-extras',
    'no-extra',
    'no-dev',
    'only-dev',
    'all-groups',
    'no-editable',
    'exact',
    'no-env-file',
    'isolated',
    'active',
    'no-active',
    'no-sync',
    'locked',
    'frozen',
    'script',
    'gui-script',
    'no-project',
    'no-index',
    'upgrade',
    'reinstall',
    'offline',
    'no-cache',
    'quiet',
    'verbose',
    'native-tls',
    'no-config',
    'refresh',
    'no-python-downloads',
    'compile-bytecode',
    'no-build',
    'no-binary',
    'no-build-isolation',
    'managed-python',
    'no-managed-python',
    'help',
  ],
};
const ENV_RUN: OptionSpec = {
  shortArg: 'np',
  longArg: ['name', 'prefix'],
  longFlag: ['no-capture-output', 'live-stream', 'debug-wrapper-scripts'],
};

/** Wrappers whose command follows a subcommand word (`uv run CMD`, `bundle exec CMD`): the spec after it. */
export const SUBCOMMAND_WRAPPERS: Record<string, Record<string, WrapperSpec>> = {
  uv: {
    run: W(UV_RUN, { readOptions: ['--env-file'], unknown: { '--directory': 'uv run --directory runs the command in another directory' } }),
  },
  poetry: { run: W({ shortFlag: 'qvnh', longFlag: ['quiet', 'verbose', 'no-interaction', 'no-ansi', 'no-plugins', 'no-cache', 'help'] }) },
  pipenv: { run: W(NONE) },
  pdm: { run: W({ shortFlag: 'vq', longFlag: ['verbose', 'quiet', 'list', 'json'] }, { stops: ['--list', '--json'] }) },
  hatch: { run: W(NONE) },
  bundle: { exec: W({ longFlag: ['keep-file-descriptors'], longArg: [] }) },
  rbenv: { exec: W(NONE) },
  pyenv: { exec: W(NONE) },
  nodenv: { exec: W(NONE) },
  asdf: { exec: W(NONE) },
  mise: {
    exec: W({ shortArg: 'jc', longArg: ['jobs', 'command'], longFlag: ['raw', 'fuzzy'] }, { scriptOptions: ['-c', '--command'] }),
    x: W({ shortArg: 'jc', longArg: ['jobs', 'command'], longFlag: ['raw', 'fuzzy'] }, { scriptOptions: ['-c', '--command'] }),
  },
  conda: { run: W(ENV_RUN) },
  mamba: { run: W(ENV_RUN) },
  micromamba: { run: W(ENV_RUN) },
  op: { run: W({ longArg: ['env-file', 'environment'], longFlag: ['no-masking'] }, { readOptions: ['--env-file'] }) },
  doppler: {
    run: W({ shortArg: 'pc', longArg: ['project', 'config', 'command'], longFlag: ['preserve-env'] }, { scriptOptions: ['--command'] }),
  },
  dotenvx: {
    run: W({ shortArg: 'f', longArg: ['env-file', 'env'], longFlag: ['overload', 'quiet'] }, { readOptions: ['-f', '--env-file'] }),
  },
  infisical: { run: W({ longArg: ['env', 'path', 'command', 'projectId', 'token'] }, { scriptOptions: ['--command'] }) },
  fnm: { exec: W({ longArg: ['using'] }) },
  volta: { run: W({ longArg: ['node', 'npm', 'yarn', 'pnpm', 'env'], longFlag: ['bundled-npm', 'no-yarn', 'no-pnpm'] }) },
  pnpm: {
    exec: W(
      {
        shortFlag: 'rc',
        longArg: ['filter', 'workspace-concurrency', 'resume-from'],
        longFlag: ['recursive', 'parallel', 'no-reporter-hide-prefix', 'report-summary', 'shell-mode'],
      },
      { unknown: { '-c': 'pnpm exec -c runs a shell string', '--shell-mode': 'pnpm exec -c runs a shell string' } },
    ),
  },
  yarn: { exec: W(NONE) },
};

/**
 * Programs known to run a command they are given that are not described well enough to look
 * through (SPEC §5: a part that cannot be analysed asks). Each: why.
 */
export const RUNS_COMMANDS: Record<string, string> = {
  at: 'at runs commands later',
  batch: 'batch runs commands later',
  crontab: 'crontab installs commands that run later',
  tmux: 'tmux runs commands in its own sessions',
  screen: 'screen runs commands in its own sessions',
  byobu: 'byobu runs commands in its own sessions',
  'systemd-run': 'systemd-run runs a command as a service',
  gdb: 'gdb runs programs and its own commands',
  lldb: 'lldb runs programs and its own commands',
  perf: 'perf runs a command',
  hyperfine: 'hyperfine runs the commands it is given with a shell',
  entr: 'entr runs a command when files change',
  nodemon: 'nodemon runs a command when files change',
  watchexec: 'watchexec runs a command when files change',
  concurrently: 'concurrently runs the commands it is given with a shell',
  'npm-run-all': 'npm-run-all runs scripts',
  pee: 'pee runs the commands it is given with a shell',
  scl: 'scl runs a command string',
  'nix-shell': 'nix-shell runs a command string',
  sops: 'sops exec-env runs a command string',
  expect: 'expect runs its own script',
  dtach: 'dtach runs a command in its own session',
  abduco: 'abduco runs a command in its own session',
  'start-stop-daemon': 'start-stop-daemon runs a program',
  daemonize: 'daemonize runs a program',
  chroot: 'chroot runs a command in another root',
  bwrap: 'bwrap runs a command in a sandbox of its own configuration',
  nsjail: 'nsjail runs a command in a sandbox of its own configuration',
  'flatpak-spawn': 'flatpak-spawn runs a command',
  distrobox: 'distrobox runs commands in a container of the host',
  toolbox: 'toolbox runs commands in a container of the host',
  'sandbox-exec': 'sandbox-exec runs a command',
  xcrun: 'xcrun runs a developer tool',
  arch: 'arch runs a command',
  'gpg-agent': 'gpg-agent runs a command',
  'dbus-launch': 'dbus-launch runs a command',
  newgrp: 'newgrp starts a shell',
  sem: 'sem runs a command string',
  mpirun: 'mpirun runs a program',
  mpiexec: 'mpiexec runs a program',
  srun: 'srun runs a program',
  'env-cmd': 'env-cmd runs a command with variables from a file',
  dotenv: 'dotenv runs a command with variables from a file',
  chamber: 'chamber runs a command',
  envchain: 'envchain runs a command',
  'with-contenv': 'with-contenv runs a command',
  retry: 'retry runs a command',
  chpst: 'chpst runs a command',
  nix: 'nix runs commands and its own shell hooks',
  direnv: 'direnv runs a command after loading .envrc, which is code',
};
