import { mayBeLong, scanArgs, type OptionSpec, type ScannedArg } from './shell/options.ts';
import { gitConfigWrites } from './shell/programs.ts';
import type { SimpleCommand } from './shell/types.ts';

/**
 * The files programs read and write by operand (SPEC §11.7, §11.8, §11.16), as data: which
 * operands a program opens, which it creates, overwrites or removes, and which options change that
 * (`sed -i`, `sort -o F`, `cp -t DIR`, `dd of=F`). bash-files.ts turns the roles into paths; a
 * program not described here has its operands checked as files it may read or write.
 */

/** What a program does to the files it is given. */
interface FileProgram {
  /** Options (GNU getopt style, any order), so their values are not taken for operands. */
  options?: OptionSpec;
  /** What its operands are: files it reads, writes (creates, changes), removes (or moves away), or no files. */
  operands: 'read' | 'write' | 'remove' | 'none';
  /** The first operand is a pattern or script (`grep PATTERN`, `sed SCRIPT`), unless one of these options gives it. */
  scriptOptions?: string[];
  /** Operands before the files that are not files (`chmod MODE`, `look STRING`): how many. */
  skip?: number;
  /** With one of these options the first operand is not skipped (`chmod --reference=F`). */
  noSkipOptions?: string[];
  /** The last operand is created or overwritten (`cp`, `mv`, `ln`, `install`); with `targetOptions` none is. */
  lastWrites?: boolean;
  /** Options whose value is a directory the other operands are written into (`cp -t DIR`). */
  targetOptions?: string[];
  /** Options whose value is a file it writes (`sort -o F`, `curl -o F`). */
  writeOptions?: string[];
  /** Options whose value is a file it reads (`grep -f F`, `truncate -r F`). */
  readOptions?: string[];
  /** Options that turn the operands into files it writes in place (`prettier --write`, `gofmt -w`). */
  inPlaceOptions?: string[];
  /** Options that leave the operands alone (`gzip -c`, `gzip -k`: the original stays). */
  keepOptions?: string[];
  /** Operands at these positions (0-based, after skipped ones) are files it writes (`uniq IN OUT`, `xxd IN OUT`). */
  writtenOperands?: number[];
  /** Operands at these positions are files it reads, whatever `operands` says (`patch ORIG PATCHFILE`). */
  readOperands?: number[];
  /** `key=file` operands (`dd if=F of=G`). */
  keyed?: Record<string, 'read' | 'write'>;
  /** Removing a directory operand removes what is under it: with these options (`rm -r`), or always (`mv`). */
  trees?: string[] | true;
  /** It makes hard links to its source operands (`ln`, `link`; `cp -l`): a read of them, and a way to write them. */
  hardLinks?: string[] | true;
  /** It makes symbolic links (`ln -s`, `cp -s`). */
  symlinks?: string[];
  /** It writes files whose names it finds elsewhere (an archive, a patch, a URL), into its directory or these options' value. */
  unknownWrites?: { why: string; dirOptions?: string[]; unless?: string[] };
}

const _HV = ['help', 'version'];
const P = (operands: FileProgram['operands'], more: Omit<FileProgram, 'operands'> = {}): FileProgram => ({ operands, ...more });

/** Readers that take no option values worth knowing. */
const PLAIN_READERS = [
  'cat',
  'tac',
  'nl',
  'less',
  'more',
  'most',
  'pg',
  'bat',
  'batcat',
  'wc',
  'rev',
  'tsort',
  'strings',
  'od',
  'hexdump',
  'hd',
  'base64',
  'base32',
  'basenc',
  'md5sum',
  'sha1sum',
  'sha224sum',
  'sha256sum',
  'sha384sum',
  'sha512sum',
  'shasum',
  'b2sum',
  'cksum',
  'sum',
  'md5',
  'file',
  'stat',
  'du',
  'ls',
  'tree',
  'diff',
  'cmp',
  'sdiff',
  'diff3',
  'vimdiff',
  'colordiff',
  'wdiff',
  'icdiff',
  'delta',
  'difft',
  'comm',
  'join',
  'paste',
  'fold',
  'fmt',
  'expand',
  'unexpand',
  'pr',
  'shuf',
  'column',
  'ptx',
  'cut',
  'zcat',
  'bzcat',
  'xzcat',
  'zstdcat',
  'lz4cat',
  'lzcat',
  'zless',
  'zmore',
  'zdiff',
  'zcmp',
  'xmllint',
  'tidy',
  'pandoc',
  'lp',
  'lpr',
  'enscript',
  'a2ps',
  'uuencode',
  'mimencode',
  'xclip',
  'xsel',
  'iconv',
  'readlink',
  'realpath',
  'source',
  '.',
  'exiftool',
  'identify',
  'pdftotext',
  'jless',
  'fx',
  'gron',
  'numfmt',
  'csvlook',
  'csvcut',
  'mlr',
  'xq',
  'tomlq',
  'git-blame',
  'highlight',
  'pygmentize',
  'ccat',
  'view',
];

/** The described programs. Readers first, then writers. */
export const FILE_PROGRAMS: Record<string, FileProgram> = {
  ...Object.fromEntries(PLAIN_READERS.map((p) => [p, P('read')])),
  head: P('read', { options: { shortArg: 'nc', longArg: ['lines', 'bytes'], numeric: true, permute: true } }),
  tail: P('read', {
    options: {
      shortArg: 'ncs',
      longArg: ['lines', 'bytes', 'sleep-interval', 'pid', 'max-unchanged-stats'],
      longOptional: ['follow'],
      numeric: true,
      permute: true,
    },
  }),
  grep: P('read', {
    options: {
      shortArg: 'efmABCdD',
      longArg: [
        'regexp',
        'file',
        'max-count',
        'after-context',
        'before-context',
        'context',
        'include',
        'exclude',
        'exclude-from',
        'exclude-dir',
        'label',
        'devices',
        'directories',
        'binary-files',
        'group-separator',
      ],
      longOptional: ['color', 'colour'],
      permute: true,
    },
    scriptOptions: ['-e', '--regexp', '-f', '--file'],
    readOptions: ['-f', '--file', '--exclude-from'],
  }),
  rg: P('read', {
    options: {
      shortArg: 'efmABCgtTMjrdE',
      longArg: [
        'regexp',
        'file',
        'max-count',
        'after-context',
        'before-context',
        'context',
        'glob',
        'iglob',
        'type',
        'type-not',
        'max-columns',
        'threads',
        'replace',
        'max-depth',
        'encoding',
        'ignore-file',
        'path-separator',
        'type-add',
        'sort',
        'sortr',
        'color',
        'colors',
        'max-filesize',
        'pre-glob',
        'field-match-separator',
        'field-context-separator',
        'context-separator',
      ],
      permute: true,
    },
    scriptOptions: ['-e', '--regexp', '-f', '--file', '--files', '--type-list'],
    readOptions: ['-f', '--file', '--ignore-file'],
  }),
  ag: P('read', {
    options: {
      shortArg: 'ABCGgmp',
      longArg: ['after', 'before', 'context', 'file-search-regex', 'max-count', 'path-to-ignore', 'ignore', 'depth', 'pager'],
      permute: true,
    },
    scriptOptions: [],
  }),
  ack: P('read', {
    options: {
      shortArg: 'ABCm',
      longArg: ['after-context', 'before-context', 'context', 'max-count', 'type', 'ignore-dir', 'ignore-file', 'match'],
      permute: true,
    },
    scriptOptions: ['--match'],
  }),
  look: P('read', { options: { shortArg: 't', shortFlag: 'bdfa', longArg: ['terminate'] }, skip: 1 }),
  jq: P('read', {
    options: {
      shortArg: 'fL',
      longArg: ['arg', 'argjson', 'slurpfile', 'rawfile', 'indent', 'from-file', 'args', 'jsonargs', 'tab'],
      permute: true,
    },
    scriptOptions: ['-f', '--from-file'],
    readOptions: ['-f', '--from-file'],
  }),
  yq: P('read', {
    options: {
      shortArg: 'IopfsF',
      longArg: ['indent', 'output-format', 'input-format', 'from-file', 'split-exp', 'front-matter', 'arg', 'argjson'],
      permute: true,
    },
    scriptOptions: ['--from-file'],
    inPlaceOptions: ['-i', '--inplace'],
  }),
  sort: P('read', {
    options: {
      shortArg: 'kStTo',
      longArg: [
        'key',
        'buffer-size',
        'field-separator',
        'temporary-directory',
        'output',
        'parallel',
        'batch-size',
        'compress-program',
        'files0-from',
        'random-source',
        'sort',
      ],
      permute: true,
    },
    writeOptions: ['-o', '--output'],
    readOptions: ['--files0-from', '--random-source'],
  }),
  uniq: P('read', {
    options: { shortArg: 'fsw', longArg: ['skip-fields', 'skip-chars', 'check-chars', 'group', 'all-repeated'], permute: true },
    writtenOperands: [1],
  }),
  xxd: P('read', { options: { shortArg: 'lscgo', permute: false }, writtenOperands: [1] }),
  tr: P('none'),
  split: P('read', {
    options: {
      shortArg: 'abCln',
      longArg: ['suffix-length', 'additional-suffix', 'bytes', 'line-bytes', 'lines', 'number', 'separator', 'filter'],
      permute: true,
    },
    writtenOperands: [1],
  }),
  csplit: P('read', {
    options: { shortArg: 'bfn', longArg: ['suffix-format', 'prefix', 'digits'], permute: true },
    writeOptions: ['-f', '--prefix'],
  }),
  iconv: P('read', {
    options: { shortArg: 'fto', longArg: ['from-code', 'to-code', 'output'], permute: true },
    writeOptions: ['-o', '--output'],
  }),
  sed: P('read', {
    options: {
      shortArg: 'efl',
      shortOptional: 'i',
      longArg: ['expression', 'file', 'line-length'],
      longOptional: ['in-place'],
      permute: true,
    },
    scriptOptions: ['-e', '--expression', '-f', '--file'],
    readOptions: ['-f', '--file'],
    inPlaceOptions: ['-i', '--in-place'],
  }),
  awk: P('read', {
    options: { shortArg: 'FvfEilLo', longArg: ['field-separator', 'assign', 'file', 'exec', 'include', 'load', 'source'], permute: true },
    scriptOptions: ['-f', '--file', '-E', '--exec', '--source'],
    readOptions: ['-f', '--file', '-E', '--exec'],
  }),
  perl: P('read', { options: { shortArg: 'eEIMmCdDFx', shortOptional: 'il0' } }),
  ruby: P('read', { options: { shortArg: 'eIrCEFKTx', shortOptional: 'il0' } }),
  dd: P('none', { keyed: { if: 'read', of: 'write' } }),
  gzip: P('write', {
    options: { shortArg: 'S', longArg: ['suffix'], permute: true },
    keepOptions: ['-c', '--stdout', '--to-stdout', '-k', '--keep', '-t', '--test', '-l', '--list'],
  }),
  // Writers: what they are given is created, changed or removed.
  tee: P('write', { options: { longOptional: ['output-error'], permute: true } }),
  touch: P('write', {
    options: { shortArg: 'dtr', longArg: ['date', 'reference', 'time'], permute: true },
    readOptions: ['-r', '--reference'],
  }),
  truncate: P('write', { options: { shortArg: 'sr', longArg: ['size', 'reference'], permute: true }, readOptions: ['-r', '--reference'] }),
  fallocate: P('write', { options: { shortArg: 'lo', longArg: ['length', 'offset'], permute: true } }),
  shred: P('remove', {
    options: { shortArg: 'ns', longArg: ['iterations', 'size', 'random-source'], longOptional: ['remove'], permute: true },
  }),
  sponge: P('write', {}),
  dos2unix: P('write', { keepOptions: ['-n', '--newfile', '-i', '--info'] }),
  unix2dos: P('write', { keepOptions: ['-n', '--newfile', '-i', '--info'] }),
  mkdir: P('write', { options: { shortArg: 'mZ', longArg: ['mode', 'context'], permute: true } }),
  mkfifo: P('write', { options: { shortArg: 'mZ', longArg: ['mode', 'context'], permute: true } }),
  mknod: P('none', { options: { shortArg: 'mZ', longArg: ['mode', 'context'] }, writtenOperands: [0] }),
  mktemp: P('write', { options: { shortArg: 'p', longArg: ['suffix', 'tmpdir'], permute: true } }),
  rm: P('remove', { options: { longOptional: ['interactive', 'preserve-root'], permute: true }, trees: ['-r', '-R', '--recursive'] }),
  rmdir: P('remove', { options: { permute: true } }),
  unlink: P('remove', {}),
  srm: P('remove', { options: { permute: true }, trees: ['-r', '-R', '--recursive'] }),
  chmod: P('write', {
    options: {
      shortFlag: 'cfvR',
      longArg: ['reference'],
      longFlag: ['changes', 'silent', 'quiet', 'verbose', 'recursive', 'no-preserve-root', 'preserve-root'],
      permute: true,
    },
    skip: 1,
    noSkipOptions: ['--reference'],
    readOptions: ['--reference'],
    trees: ['-R', '--recursive'],
  }),
  chown: P('write', {
    options: { longArg: ['reference', 'from'], permute: true },
    skip: 1,
    noSkipOptions: ['--reference'],
    readOptions: ['--reference'],
    trees: ['-R', '--recursive'],
  }),
  chgrp: P('write', {
    options: { longArg: ['reference'], permute: true },
    skip: 1,
    noSkipOptions: ['--reference'],
    readOptions: ['--reference'],
    trees: ['-R', '--recursive'],
  }),
  chattr: P('write', { options: { shortArg: 'vp', permute: true }, skip: 1, trees: ['-R'] }),
  setfacl: P('write', {
    options: { shortArg: 'mMxX', longArg: ['modify', 'modify-file', 'remove', 'remove-file', 'set', 'set-file', 'restore'], permute: true },
    trees: ['-R', '--recursive'],
  }),
  cp: P('read', {
    options: {
      shortArg: 'St',
      longArg: ['target-directory', 'suffix', 'sparse', 'reflink', 'backup', 'preserve', 'no-preserve', 'context'],
      longOptional: ['backup', 'preserve', 'reflink', 'context'],
      permute: true,
    },
    lastWrites: true,
    targetOptions: ['-t', '--target-directory'],
    hardLinks: ['-l', '--link'],
    symlinks: ['-s', '--symbolic-link'],
  }),
  mv: P('remove', {
    options: {
      shortArg: 'St',
      longArg: ['target-directory', 'suffix', 'backup', 'context'],
      longOptional: ['backup', 'context'],
      permute: true,
    },
    lastWrites: true,
    targetOptions: ['-t', '--target-directory'],
    trees: true,
  }),
  ln: P('read', {
    options: { shortArg: 'St', longArg: ['target-directory', 'suffix', 'backup'], longOptional: ['backup'], permute: true },
    lastWrites: true,
    targetOptions: ['-t', '--target-directory'],
    hardLinks: true,
    symlinks: ['-s', '--symbolic'],
  }),
  link: P('read', { lastWrites: true, hardLinks: true }),
  install: P('read', {
    options: {
      shortArg: 'gmoStZ',
      longArg: ['group', 'mode', 'owner', 'suffix', 'target-directory', 'context', 'backup', 'strip-program'],
      longOptional: ['backup', 'context'],
      permute: true,
    },
    lastWrites: true,
    targetOptions: ['-t', '--target-directory'],
    inPlaceOptions: ['-d', '--directory'],
  }),
  rsync: P('read', {
    options: {
      shortArg: 'eBfTM',
      longArg: [
        'rsh',
        'rsync-path',
        'filter',
        'exclude',
        'exclude-from',
        'include',
        'include-from',
        'files-from',
        'temp-dir',
        'compare-dest',
        'copy-dest',
        'link-dest',
        'partial-dir',
        'log-file',
        'write-batch',
        'only-write-batch',
        'read-batch',
        'backup-dir',
        'suffix',
        'chmod',
        'chown',
        'usermap',
        'groupmap',
        'password-file',
        'out-format',
        'log-file-format',
        'bwlimit',
        'max-size',
        'min-size',
        'timeout',
        'contimeout',
        'port',
        'sockopts',
        'block-size',
        'checksum-choice',
        'compress-choice',
        'compress-level',
        'iconv',
        'max-delete',
        'modify-window',
        'stop-after',
        'stop-at',
        'info',
        'debug',
      ],
      permute: true,
    },
    lastWrites: true,
    writeOptions: ['--log-file', '--write-batch', '--only-write-batch', '--backup-dir'],
    readOptions: ['--exclude-from', '--include-from', '--files-from', '--read-batch', '--password-file'],
    hardLinks: ['--link-dest'],
  }),
  scp: P('read', { options: { shortArg: 'cDFiJloPSX', permute: true }, lastWrites: true }),
  tar: P('read', {}),
  unzip: P('read', {
    options: { shortArg: 'dxP', permute: true },
    unknownWrites: {
      why: 'unzip writes the files the archive holds',
      dirOptions: ['-d'],
      unless: ['-p', '-l', '-t', '-v', '-Z', '-z', '-c'],
    },
  }),
  zip: P('read', {
    options: { shortArg: 'bnPtxiO', longArg: ['temp-path', 'suffixes', 'password', 'exclude', 'include', 'out'], permute: true },
    writtenOperands: [0],
    writeOptions: ['-O', '--out'],
    trees: ['-m', '--move'],
  }),
  patch: P('none', {
    readOperands: [1],
    options: {
      shortArg: 'iopBDdFrVYzgx',
      longArg: [
        'input',
        'output',
        'strip',
        'prefix',
        'reject-file',
        'directory',
        'fuzz',
        'suffix',
        'backup-if-mismatch',
        'quoting-style',
        'version-control',
        'basename-prefix',
        'ifdef',
        'get',
        'debug',
        'merge',
        'read-only',
        'reject-format',
      ],
      permute: true,
    },
    writtenOperands: [0],
    readOptions: ['-i', '--input'],
    writeOptions: ['-o', '--output', '-r', '--reject-file'],
    unknownWrites: {
      why: 'patch writes the files the patch names',
      dirOptions: ['-d', '--directory'],
      unless: ['--dry-run', '-o', '--output'],
    },
  }),
  curl: P('none', {
    options: {
      shortArg: 'oTdFKcDbeEHuUxXAmrwYyzCQ',
      longArg: [
        'output',
        'upload-file',
        'data',
        'data-binary',
        'data-raw',
        'data-urlencode',
        'data-ascii',
        'form',
        'form-string',
        'json',
        'config',
        'cookie-jar',
        'dump-header',
        'cookie',
        'trace',
        'trace-ascii',
        'stderr',
        'libcurl',
        'etag-save',
        'etag-compare',
        'hsts',
        'alt-svc',
        'cert',
        'key',
        'cacert',
        'header',
        'user',
        'proxy',
        'request',
        'user-agent',
        'referer',
        'max-time',
        'connect-timeout',
        'retry',
        'output-dir',
        'write-out',
        'netrc-file',
        'url',
        'range',
        'resolve',
        'connect-to',
      ],
      permute: true,
    },
    writeOptions: [
      '-o',
      '--output',
      '-c',
      '--cookie-jar',
      '-D',
      '--dump-header',
      '--trace',
      '--trace-ascii',
      '--stderr',
      '--libcurl',
      '--etag-save',
      '--hsts',
      '--alt-svc',
    ],
    readOptions: ['-T', '--upload-file', '-K', '--config', '--etag-compare', '--netrc-file', '--cert', '--key'],
    unknownWrites: { why: 'curl -O writes a file named by the URL', dirOptions: ['--output-dir'], unless: [] },
  }),
  wget: P('none', {
    options: {
      shortArg: 'OoaiPeTtwUYQlAR',
      longArg: [
        'output-document',
        'output-file',
        'append-output',
        'input-file',
        'directory-prefix',
        'execute',
        'post-file',
        'body-file',
        'post-data',
        'header',
        'user',
        'password',
        'user-agent',
        'timeout',
        'tries',
        'wait',
        'level',
        'accept',
        'reject',
        'load-cookies',
        'save-cookies',
        'ca-certificate',
        'certificate',
        'private-key',
        'config',
        'quota',
        'limit-rate',
        'method',
        'body-data',
      ],
      permute: true,
    },
    writeOptions: ['-O', '--output-document', '-o', '--output-file', '-a', '--append-output', '--save-cookies'],
    readOptions: [
      '-i',
      '--input-file',
      '--post-file',
      '--body-file',
      '--load-cookies',
      '--config',
      '--certificate',
      '--private-key',
      '--ca-certificate',
    ],
    unknownWrites: {
      why: 'wget writes files named by the URL',
      dirOptions: ['-P', '--directory-prefix'],
      unless: ['-O', '--output-document', '--spider'],
    },
  }),
  sqlite3: P('none', {
    options: { longArg: ['cmd', 'separator', 'nullvalue', 'newline'] },
    writtenOperands: [0],
    keepOptions: ['-readonly'],
  }),
  find: P('read', {}),
  cpio: P('none', {
    unknownWrites: {
      why: 'cpio -i writes the files the archive holds',
      dirOptions: ['-D', '--directory'],
      unless: ['-o', '--create', '-t', '--list', '-p', '--pass-through'],
    },
  }),
  bsdtar: P('read', {
    unknownWrites: { why: 'bsdtar -x writes the files the archive holds', dirOptions: ['-C'], unless: ['-c', '-t', '--create', '--list'] },
  }),
  '7z': P('read', { unknownWrites: { why: '7z x writes the files the archive holds', unless: ['l', 'a', 't'] } }),
  git: P('read', {}),
  // Formatters and fixers: with these options they rewrite the files they are given.
  prettier: P('read', {
    options: {
      longArg: [
        'config',
        'ignore-path',
        'parser',
        'plugin',
        'log-level',
        'cache-location',
        'stdin-filepath',
        'print-width',
        'tab-width',
        'trailing-comma',
        'end-of-line',
        'arrow-parens',
        'prose-wrap',
        'quote-props',
        'html-whitespace-sensitivity',
        'embedded-language-formatting',
        'object-wrap',
        'experimental-operator-position',
      ],
      permute: true,
    },
    inPlaceOptions: ['-w', '--write'],
  }),
  eslint: P('read', {
    options: {
      shortArg: 'cfo',
      longArg: [
        'config',
        'format',
        'output-file',
        'ext',
        'rule',
        'plugin',
        'parser',
        'parser-options',
        'resolve-plugins-relative-to',
        'rulesdir',
        'ignore-path',
        'ignore-pattern',
        'cache-location',
        'max-warnings',
        'env',
        'global',
        'stdin-filename',
        'fix-type',
      ],
      permute: true,
    },
    inPlaceOptions: ['--fix'],
    writeOptions: ['-o', '--output-file'],
  }),
  black: P('write', {
    options: {
      shortArg: 'lltSWc',
      longArg: [
        'line-length',
        'target-version',
        'include',
        'exclude',
        'extend-exclude',
        'force-exclude',
        'config',
        'workers',
        'code',
        'stdin-filename',
        'required-version',
        'python-cell-magics',
      ],
      permute: true,
    },
    keepOptions: ['--check', '--diff'],
  }),
  gofmt: P('read', { options: { shortArg: 'r', permute: true }, inPlaceOptions: ['-w'] }),
  goimports: P('read', { options: { shortArg: '', longArg: ['local'], permute: true }, inPlaceOptions: ['-w'] }),
  rustfmt: P('write', {
    options: { longArg: ['edition', 'config-path', 'config', 'emit', 'color', 'style-edition'], permute: true },
    keepOptions: ['--check'],
  }),
  'clang-format': P('read', {
    options: { longArg: ['style', 'assume-filename', 'lines', 'offset', 'length', 'fallback-style', 'cursor', 'files'], permute: true },
    inPlaceOptions: ['-i'],
  }),
  autopep8: P('read', {
    options: { longArg: ['global-config', 'select', 'ignore', 'max-line-length', 'line-range', 'indent-size', 'exit-code'], permute: true },
    inPlaceOptions: ['-i', '--in-place'],
  }),
  isort: P('write', { options: { permute: true }, keepOptions: ['--check-only', '--check', '-c', '--diff'] }),
  yapf: P('read', { options: { longArg: ['style', 'lines', 'exclude'], permute: true }, inPlaceOptions: ['-i', '--in-place'] }),
  shfmt: P('read', { options: { shortArg: 'iln', permute: true }, inPlaceOptions: ['-w', '--write'] }),
  stylua: P('write', { options: { permute: true }, keepOptions: ['--check', '-c'] }),
};
FILE_PROGRAMS.egrep = FILE_PROGRAMS.grep;
FILE_PROGRAMS.fgrep = FILE_PROGRAMS.grep;
for (const z of ['zgrep', 'zegrep', 'zfgrep', 'bzgrep', 'xzgrep', 'zstdgrep', 'lzgrep']) FILE_PROGRAMS[z] = FILE_PROGRAMS.grep;
for (const a of ['gawk', 'mawk', 'nawk']) FILE_PROGRAMS[a] = FILE_PROGRAMS.awk;
FILE_PROGRAMS.gsed = FILE_PROGRAMS.sed;
FILE_PROGRAMS.perl5 = FILE_PROGRAMS.perl;
for (const z of [
  'gunzip',
  'bzip2',
  'bunzip2',
  'xz',
  'unxz',
  'lzma',
  'unlzma',
  'zstd',
  'unzstd',
  'lz4',
  'unlz4',
  'brotli',
  'pigz',
  'unpigz',
  'pbzip2',
  'lzop',
  'compress',
  'uncompress',
])
  FILE_PROGRAMS[z] = FILE_PROGRAMS.gzip;
FILE_PROGRAMS.ggrep = FILE_PROGRAMS.grep;

/** Programs whose arguments are never files they open (SPEC §11.7). */
export const NO_FILE_ARGS = new Set([
  'echo',
  'printf',
  'pwd',
  'cd',
  'pushd',
  'popd',
  'true',
  'false',
  'exit',
  'return',
  'export',
  'unset',
  'set',
  'shift',
  'sleep',
  'test',
  '[',
  '[[',
  'local',
  'declare',
  'typeset',
  'readonly',
  'kill',
  'wait',
  'printenv',
  'date',
  'seq',
  'expr',
  'basename',
  'dirname',
  'which',
  'type',
  'command',
  'hash',
  'alias',
  'unalias',
  'jobs',
  'fg',
  'bg',
  'disown',
  'times',
  'ulimit',
  'umask',
  'shopt',
  'getopts',
  'let',
  'read',
  ':',
  'whoami',
  'id',
  'hostname',
  'uname',
  'nproc',
  'env',
  'yes',
  'tty',
  'clear',
  'reset',
]);

/** One file a program names, by its role. `index`: the argument word (for whether it is known before the command runs). */
export interface FileRef {
  path: string;
  index: number;
  /** For a tree: only files whose names match all these patterns are removed (`find D -name '*.pyc' -delete`). */
  names?: string[];
  /** Relative to the repository (the project root), not to where the command runs (`git config` writes `.git/config`). */
  repo?: boolean;
}

interface FileRoles {
  reads: FileRef[];
  /** Files it creates, changes or removes. */
  writes: FileRef[];
  /** Directories it removes or moves away with what is under them (`rm -r D`, `mv D E`). */
  trees: FileRef[];
  /** Directories it writes files into whose names are not in the command (`unzip -d D`, `tar -C D -x`), or '' for its own directory. */
  writesInto: Array<FileRef & { why: string }>;
  /** Hard links it makes: to `target` (read, and written through the link). */
  hardLinks: FileRef[];
  /** Symbolic links it makes: `link` → `target` (as written). */
  symlinks: Array<{ link: FileRef; target: FileRef }>;
  /** What it copies or moves as it is, symlinks inside included (`mv A B`, `cp -a A B`): `to` holds what `from` held. */
  copies: Array<{ to: FileRef; from: FileRef }>;
  /** The program is not described: its operands may be files it reads or writes. */
  undescribed: boolean;
  /** Argument words that only name what it creates (`touch F`, the last of `cp A F`): not read. */
  created: Set<number>;
}

const empty = (): FileRoles => ({
  reads: [],
  writes: [],
  trees: [],
  writesInto: [],
  hardLinks: [],
  symlinks: [],
  copies: [],
  undescribed: false,
  created: new Set(),
});
const has = (args: ScannedArg[], names: readonly string[] | undefined) =>
  !!names && args.some((a) => a.option !== undefined && names.includes(a.option));
const values = (args: ScannedArg[], names: readonly string[] | undefined) =>
  names ? args.filter((a) => a.option !== undefined && names.includes(a.option)) : [];

/** `tar`: its first word may be a bundle of letters without a dash (`tar czf out.tgz dir`). */
function tarRoles(c: SimpleCommand): FileRoles {
  const roles = empty();
  const args = [...c.args];
  if (args[0] && !args[0].startsWith('-')) args[0] = `-${args[0]}`;
  const scanned = scanArgs(args, {
    shortArg: 'fCTXbgHKLNV',
    shortFlag: 'cxtruAdzjJZavpPkhSWOBGilmMoRsUw',
    longArg: [
      'file',
      'directory',
      'files-from',
      'exclude-from',
      'exclude',
      'blocking-factor',
      'listed-incremental',
      'format',
      'starting-file',
      'tape-length',
      'newer',
      'after-date',
      'newer-mtime',
      'label',
      'owner',
      'group',
      'mode',
      'mtime',
      'transform',
      'xform',
      'index-file',
      'record-size',
      'strip-components',
      'suffix',
      'backup',
      'occurrence',
      'volno-file',
      'sort',
      'warning',
      'use-compress-program',
      'to-command',
      'checkpoint-action',
      'info-script',
      'new-volume-script',
      'rsh-command',
      'rmt-command',
      'exclude-tag',
      'exclude-tag-all',
      'exclude-tag-under',
      'null',
    ],
    longOptional: ['checkpoint', 'backup', 'occurrence'],
    longFlag: [
      'create',
      'extract',
      'get',
      'list',
      'append',
      'update',
      'catenate',
      'concatenate',
      'diff',
      'compare',
      'delete',
      'gzip',
      'bzip2',
      'xz',
      'zstd',
      'lzip',
      'lzma',
      'lzop',
      'compress',
      'auto-compress',
      'verbose',
      'to-stdout',
      'keep-old-files',
      'overwrite',
      'remove-files',
      'absolute-names',
      'dereference',
      'preserve-permissions',
      'same-permissions',
      'no-same-owner',
      'touch',
      'unlink-first',
      'recursive-unlink',
    ],
    permute: true,
  });
  const mode =
    scanned.find((a) =>
      [
        '-c',
        '-x',
        '-t',
        '-r',
        '-u',
        '-A',
        '-d',
        '--create',
        '--extract',
        '--get',
        '--list',
        '--append',
        '--update',
        '--catenate',
        '--concatenate',
        '--diff',
        '--compare',
        '--delete',
      ].includes(a.option ?? ''),
    )?.option ?? '';
  const archive = values(scanned, ['-f', '--file']);
  const members = scanned.filter((a) => !a.option);
  const dir = values(scanned, ['-C', '--directory']).at(-1);
  const extract = /^(-x|--extract|--get)$/.test(mode) && !has(scanned, ['-O', '--to-stdout']);
  const writing = /^(-c|-r|-u|-A|--create|--append|--update|--catenate|--concatenate|--delete)$/.test(mode);
  for (const f of archive) if (f.value !== '-') (writing ? roles.writes : roles.reads).push({ path: f.value, index: f.index });
  for (const f of values(scanned, ['-T', '--files-from', '-X', '--exclude-from'])) roles.reads.push({ path: f.value, index: f.index });
  // Members are read when creating and written when extracting, where tar is and under -C DIR.
  for (const m of members) {
    const into = extract ? roles.writes : roles.reads;
    into.push({ path: m.value, index: m.index });
    if (dir) into.push({ path: `${dir.value.replace(/\/+$/, '')}/${m.value}`, index: m.index });
  }
  if (extract && members.length === 0)
    roles.writesInto.push({ path: dir?.value ?? '', index: dir?.index ?? -1, why: 'tar writes the files the archive holds' });
  if (has(scanned, ['--remove-files'])) for (const m of members) roles.trees.push({ path: m.value, index: m.index });
  return roles;
}

/** `find PATHS… EXPRESSION`: the start points are read; `-delete` removes under them; `-fprint F` writes F. */
function findRoles(c: SimpleCommand): FileRoles {
  const roles = empty();
  const starts: FileRef[] = [];
  let i = 0;
  while (i < c.args.length && /^-[HLP]$|^-D$|^-O\d*$/.test(c.args[i])) i += c.args[i] === '-D' ? 2 : 1;
  for (; i < c.args.length && !/^[-(!]/.test(c.args[i]); i++) starts.push({ path: c.args[i], index: i });
  if (starts.length === 0) starts.push({ path: '.', index: -1 });
  roles.reads.push(...starts.filter((s) => s.index >= 0));
  const expression = c.args.slice(i);
  // `-name P` tests joined by `and` only: what -delete removes has a name that matches every P.
  const names = expression.some((a) => /^(-o|-or|!|-not|,|\(|\))$/.test(a))
    ? []
    : expression.flatMap((a, k) => (/^-i?name$/.test(a) && expression[k + 1] !== undefined ? [expression[k + 1]] : []));
  for (; i < c.args.length; i++) {
    const a = c.args[i];
    if (/^-(fprint0?|fprintf|fls)$/.test(a) && c.args[i + 1] !== undefined) roles.writes.push({ path: c.args[i + 1], index: i + 1 });
    else if (/^-(newer|anewer|cnewer|samefile|newer[aBcmt][aBcmt])$/.test(a) && c.args[i + 1] !== undefined)
      roles.reads.push({ path: c.args[i + 1], index: i + 1 });
    else if (a === '-delete') roles.trees.push(...starts.map((s) => (names.length ? { ...s, names } : s)));
  }
  return roles;
}

/** git subcommands that write tracked files into the work tree (wherever `--work-tree` puts it). */
const GIT_WORK_TREE_WRITERS = new Set([
  'checkout',
  'switch',
  'restore',
  'reset',
  'merge',
  'pull',
  'stash',
  'cherry-pick',
  'revert',
  'rebase',
  'am',
  'apply',
  'checkout-index',
  'read-tree',
  'clean',
  'rm',
  'mv',
  'sparse-checkout',
]);

/**
 * Options of git subcommands that write the repository's files into a directory they name
 * (`checkout-index --prefix=.git/hooks/`, `read-tree -u --prefix=D`, `worktree add D`, `clone URL D`):
 * the directory, or undefined.
 */
function gitWritesInto(sub: string, words: Array<{ path: string; index: number }>): { path: string; index: number } | undefined {
  const value = (name: string) => {
    for (const [k, w] of words.entries()) {
      if (w.path === `--${name}` && words[k + 1]) return { path: words[k + 1].path, index: words[k + 1].index };
      if (w.path.startsWith(`--${name}=`)) return { path: w.path.slice(name.length + 3), index: w.index };
    }
    return undefined;
  };
  const operands = words.filter((w) => !w.path.startsWith('-'));
  if (sub === 'checkout-index' || sub === 'read-tree') {
    // `--prefix=.git/hooks/pre-` writes `.git/hooks/pre-NAME`: the directory is up to the last slash.
    const p = value('prefix');
    if (!p || (sub === 'read-tree' && !words.some((w) => w.path === '-u'))) return undefined;
    if (sub === 'read-tree') return p;
    const slash = p.path.lastIndexOf('/');
    return { path: slash >= 0 ? p.path.slice(0, slash + 1) || '/' : '.', index: p.index };
  }
  if (sub === 'worktree' && operands[0]?.path === 'add' && operands[1]) return operands[1];
  if ((sub === 'clone' || sub === 'submodule') && operands.length >= (sub === 'clone' ? 2 : 3)) return operands[operands.length - 1];
  return undefined;
}

/** git: `checkout`/`restore` write the paths they are given, `rm`/`mv`/`clean` remove them; other subcommands read. */
function gitRoles(c: SimpleCommand): FileRoles {
  const roles = gitRolesOf(c);
  // `git --work-tree=D checkout …`, `git checkout-index --prefix=D/`: the repository's files are written into D.
  let i = 0;
  let workTree: { path: string; index: number } | undefined;
  let dir = '';
  while (i < c.args.length && c.args[i].startsWith('-')) {
    const a = c.args[i];
    if (a === '--work-tree' && c.args[i + 1] !== undefined) workTree = { path: c.args[i + 1], index: i + 1 };
    else if (a.startsWith('--work-tree=')) workTree = { path: a.slice('--work-tree='.length), index: i };
    else if (a === '-C' && c.args[i + 1] !== undefined) dir = c.args[i + 1].startsWith('/') ? c.args[i + 1] : `${dir}${c.args[i + 1]}/`;
    i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(a) ? 2 : 1;
  }
  const sub = c.args[i] ?? '';
  const at = (p: { path: string; index: number }) => ({
    ...p,
    path: p.path.startsWith('/') || p.path.startsWith('~') ? p.path : `${dir}${p.path}`,
  });
  const words = c.args.slice(i + 1).map((path, k) => ({ path, index: i + 1 + k }));
  if (workTree && GIT_WORK_TREE_WRITERS.has(sub)) roles.trees.push(at(workTree));
  const into = gitWritesInto(sub, words);
  if (into) roles.trees.push(at(into));
  return roles;
}

function gitRolesOf(c: SimpleCommand): FileRoles {
  const roles = empty();
  let i = 0;
  while (i < c.args.length && c.args[i].startsWith('-'))
    i += ['-C', '-c', '--git-dir', '--work-tree', '--namespace'].includes(c.args[i]) ? 2 : 1;
  const sub = c.args[i];
  const rest = c.args
    .slice(i + 1)
    .map((path, k) => ({ path, index: i + 1 + k }))
    .filter((a) => !a.path.startsWith('-') || a.path === '--');
  const dashdash = rest.findIndex((a) => a.path === '--');
  const paths = (dashdash >= 0 ? rest.slice(dashdash + 1) : rest).filter((a) => a.path !== '--');
  switch (sub) {
    case 'checkout':
    case 'restore':
      // `git checkout BRANCH` names no file; `git checkout -- F` and `git restore F` write F.
      roles.writes.push(...(sub === 'restore' || dashdash >= 0 ? paths : paths.slice(1)));
      break;
    case 'rm':
    case 'clean':
      roles.trees.push(...paths);
      if (sub === 'clean' && paths.length === 0) roles.writesInto.push({ path: '', index: -1, why: 'git clean removes untracked files' });
      break;
    case 'mv':
      roles.trees.push(...paths.slice(0, -1));
      roles.writes.push(...paths.slice(-1));
      break;
    case 'config': {
      // A setting is written to the repository's config (or the user's with --global, a file with --file).
      const words = c.args.slice(i + 1);
      if (!gitConfigWrites(words)) break;
      const file = words.findIndex((a) => a === '-f' || a === '--file');
      const eq = words.find((a) => a.startsWith('--file='));
      const path =
        file >= 0
          ? words[file + 1]
          : eq
            ? eq.slice('--file='.length)
            : words.includes('--global')
              ? '~/.gitconfig'
              : words.includes('--system')
                ? '/etc/gitconfig'
                : '.git/config';
      if (path !== undefined) roles.writes.push({ path, index: file >= 0 ? i + 2 + file : -1, repo: path === '.git/config' });
      break;
    }
    case 'bundle':
      // `git bundle create FILE REVS`: FILE is written.
      if (paths[0]?.path === 'create' && paths[1]) roles.writes.push(paths[1]);
      break;
    case 'init':
      // `git init --template=DIR` copies DIR's hooks into .git/hooks.
      if (c.args.slice(i + 1).some((a) => mayBeLong(a, 'template')))
        roles.writes.push({ path: '.git/hooks/pre-commit', index: -1, repo: true });
      break;
    case 'apply':
    case 'am':
      roles.reads.push(...paths);
      if (!c.args.some((a) => /^--(check|stat|numstat|summary|cached)$/.test(a)))
        roles.writesInto.push({ path: '', index: -1, why: `git ${sub} writes the files the patch names` });
      break;
    default:
      return { ...roles, reads: c.args.map((path, index) => ({ path, index })).filter((a) => !a.path.startsWith('-')) };
  }
  return roles;
}

/**
 * The files a command names, by role. The caller adds what no table needs: `--opt=FILE` values,
 * `git show REV:PATH`, redirections.
 */
export function fileRoles(c: SimpleCommand): FileRoles {
  if (NO_FILE_ARGS.has(c.program)) return empty();
  if (c.program === 'tar') return tarRoles(c);
  if (c.program === 'find') return findRoles(c);
  if (c.program === 'git') return gitRoles(c);
  const spec = Object.hasOwn(FILE_PROGRAMS, c.program) ? FILE_PROGRAMS[c.program] : undefined;
  if (!spec) {
    // Not described: every operand may be a file it reads or writes.
    return {
      ...empty(),
      reads: c.args.map((path, index) => ({ path, index })).filter((a) => a.path !== '' && !a.path.startsWith('-')),
      undescribed: true,
    };
  }
  const roles = empty();
  // `chmod -x F`: a mode that starts with a dash is the mode, not an option.
  const args =
    c.program === 'chmod' ? c.args.map((a) => (/^-[rwxXstugoa,+=-]*[rwxXst]/.test(a) && !/^-[cfvR]+$/.test(a) ? `=${a}` : a)) : c.args;
  const scanned = scanArgs(args, { lenient: true, ...spec.options });
  let operands = scanned.filter((a) => a.option === undefined && a.value !== '');
  for (const a of values(scanned, spec.writeOptions)) roles.writes.push({ path: a.value, index: a.index });
  for (const a of values(scanned, spec.readOptions)) roles.reads.push({ path: a.value, index: a.index });
  if (spec.keyed) {
    for (const a of operands) {
      const eq = a.value.indexOf('=');
      const role = eq > 0 ? spec.keyed[a.value.slice(0, eq)] : undefined;
      if (role) (role === 'read' ? roles.reads : roles.writes).push({ path: a.value.slice(eq + 1), index: a.index });
    }
    return roles;
  }
  if (spec.scriptOptions && !has(scanned, spec.scriptOptions)) operands = operands.slice(1); // the pattern or script
  if (spec.skip && !has(scanned, spec.noSkipOptions)) operands = operands.slice(spec.skip);
  // `perl -ne CODE FILES` reads FILES; `perl script.pl ARGS`: the script file, then its own arguments.
  if ((c.program === 'perl' || c.program === 'ruby') && !c.code)
    return { ...empty(), reads: operands.slice(0, 1).map((a) => ({ path: a.value, index: a.index })) };
  const ref = (a: ScannedArg): FileRef => ({ path: a.value, index: a.index });
  const inPlace = c.inPlace || has(scanned, spec.inPlaceOptions);
  const keep = has(scanned, spec.keepOptions);
  let role: FileProgram['operands'] = spec.operands;
  if (inPlace) role = 'write';
  if (keep) role = 'read';
  let target = values(scanned, spec.targetOptions).at(-1);
  // `ln -s ~/.bashrc`: with one operand, ln makes the link in the current directory, named like its target.
  if (!target && (c.program === 'ln' || c.program === 'link') && operands.length === 1) target = { ...operands[0], value: '.' };
  const hard = spec.hardLinks === true ? !has(scanned, spec.symlinks) : has(scanned, spec.hardLinks || undefined);
  const sym = has(scanned, spec.symlinks);
  let sources = operands;
  let dest: ScannedArg | undefined;
  if (spec.lastWrites && !target && operands.length >= 2) {
    dest = operands[operands.length - 1];
    sources = operands.slice(0, -1);
  }
  if (spec.lastWrites && (target || dest)) {
    // What a copy, move or link creates: DEST itself, or DEST/NAME when DEST is a directory.
    const into = target ?? dest!;
    if (dest) {
      roles.writes.push(ref(dest));
      roles.created.add(dest.index);
    }
    // `cp --parents a/b D` writes D/a/b: the source's whole path under the target.
    const parents = c.program === 'cp' && has(scanned, ['--parents']);
    for (const s of sources) {
      const name = parents ? s.value.replace(/^\/+/, '') : (s.value.replace(/\/+$/, '').split('/').pop() ?? s.value);
      roles.writes.push({ path: `${into.value.replace(/\/+$/, '')}/${name}`, index: into.index });
    }
    if (sym)
      for (const s of sources)
        roles.symlinks.push({
          link: dest && !target ? ref(dest) : { path: `${into.value.replace(/\/+$/, '')}/${s.value.split('/').pop()}`, index: into.index },
          target: ref(s),
        });
    // `mv L X`, `cp -a D X`, `rsync -a D X`: X holds L's symlinks as they are (not what they lead to).
    const asIs =
      c.program === 'mv' ||
      (c.program === 'cp' && has(scanned, ['-r', '-R', '-a', '-P', '-d', '--recursive', '--archive', '--no-dereference'])) ||
      (c.program === 'rsync' && has(scanned, ['-a', '-l', '--archive', '--links']));
    if (asIs && !sym && !hard) {
      for (const s of sources) {
        const name = s.value.replace(/\/+$/, '').split('/').pop() ?? s.value;
        if (dest && !target) roles.copies.push({ to: ref(dest), from: ref(s) });
        roles.copies.push({ to: { path: `${into.value.replace(/\/+$/, '')}/${name}`, index: into.index }, from: ref(s) });
      }
    }
  }
  if (hard) roles.hardLinks.push(...(spec.lastWrites ? sources : operands).map(ref));
  const trees = spec.trees === true || has(scanned, spec.trees || undefined);
  sources.forEach((a, k) => {
    if (spec.writtenOperands?.includes(k) && !keep) {
      roles.writes.push(ref(a));
      return;
    }
    if (spec.readOperands?.includes(k)) {
      roles.reads.push(ref(a));
      return;
    }
    if (role === 'none') return;
    if (role === 'read') roles.reads.push(ref(a));
    else (trees ? roles.trees : roles.writes).push(ref(a));
    if (c.program === 'touch') roles.created.add(a.index);
    if (role === 'remove' && c.program === 'mv') roles.reads.push(ref(a));
  });
  if (spec.unknownWrites && !has(scanned, spec.unknownWrites.unless)) {
    const dir = values(scanned, spec.unknownWrites.dirOptions).at(-1);
    const remoteName = c.program !== 'curl' || has(scanned, ['-O', '--remote-name', '--remote-name-all']);
    if (remoteName) roles.writesInto.push({ path: dir?.value ?? '', index: dir?.index ?? -1, why: spec.unknownWrites.why });
  }
  // `rsync --delete SRC DEST` removes what DEST holds that SRC does not; `--remove-source-files` removes the sources.
  if (c.program === 'rsync' && dest && scanned.some((a) => a.option?.startsWith('--delete') || a.option === '--del'))
    roles.trees.push(ref(dest));
  if (c.program === 'rsync' && has(scanned, ['--remove-source-files'])) roles.trees.push(...sources.map(ref));
  if (c.program === 'curl' || c.program === 'wget') {
    // `curl file:///path` reads a local file; `-d @F`, `-F k=@F` read F.
    for (const a of scanned) {
      if (!a.option && a.value.startsWith('file://'))
        roles.reads.push({ path: decodeURI(a.value.slice('file://'.length)), index: a.index });
      const at = a.option && /@/.test(a.value) ? a.value.slice(a.value.indexOf('@') + 1).replace(/;.*$/, '') : undefined;
      if (at) roles.reads.push({ path: at, index: a.index });
    }
  }
  return roles;
}

/** Programs that open their operands as files (for names known only at run time, runtime-reads.ts). */
export function readsOperands(program: string): boolean {
  const spec = Object.hasOwn(FILE_PROGRAMS, program) ? FILE_PROGRAMS[program] : undefined;
  return !!spec && (spec.operands === 'read' || !!spec.keyed) && program !== 'git' && program !== 'find';
}

/**
 * Options with which a program reads files named inside another file (`wc --files0-from=F`,
 * `file -f F`, `sha256sum -c F`): which files it opens is known only when it runs.
 */
const NAMES_FROM_FILE: Record<string, RegExp> = {
  wc: /^--files0-from(=|$)/,
  du: /^--files0-from(=|$)/,
  sort: /^--files0-from(=|$)/,
  file: /^(-[a-zA-Z]*f|--files-from(=|$))/,
  ...Object.fromEntries(
    ['md5sum', 'sha1sum', 'sha224sum', 'sha256sum', 'sha384sum', 'sha512sum', 'shasum', 'b2sum', 'cksum'].map((p) => [
      p,
      /^(-[a-zA-Z]*c|--check$)/,
    ]),
  ),
  tar: /^(-[a-zA-Z]*T|--files-from(=|$))/,
  rsync: /^--files-from(=|$)/,
};

/**
 * Options with which a program that walks a directory tree follows the symbolic links it finds
 * there (`grep -R`, `rg -L`, `find -L`, `du -L`): a link in the tree may lead anywhere, a secret
 * outside the project among them. `tree` is the option set; `find` takes `-follow` anywhere.
 */
const FOLLOWS_LINKS: Record<string, RegExp> = {
  grep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  egrep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  fgrep: /^(-[a-zA-Z]*R|--dereference-recursive$)/,
  rg: /^(-[a-zA-Z]*L|--follow$)/,
  ag: /^(-[a-zA-Z]*f|--follow$)/,
  find: /^(-L|-follow)$/,
  du: /^(-[a-zA-Z]*L|--dereference$)/,
  tree: /^-[a-zA-Z]*l/,
  ls: /^(-[a-zA-Z]*L|--dereference$)/,
};

/** The option of `c` that makes it read files named in another file, or follow links in a tree, or undefined. */
export function namesFromFile(c: SimpleCommand): string | undefined {
  const re = Object.hasOwn(NAMES_FROM_FILE, c.program) ? NAMES_FROM_FILE[c.program] : undefined;
  return re ? c.args.find((a) => re.test(a)) : undefined;
}
export function followsLinks(c: SimpleCommand): string | undefined {
  const re = Object.hasOwn(FOLLOWS_LINKS, c.program) ? FOLLOWS_LINKS[c.program] : undefined;
  if (!re) return undefined;
  // `ls -L` follows links only into what it lists; with -R it walks the tree through them.
  if (c.program === 'ls' && !c.args.some((a) => /^(-[a-zA-Z]*R[a-zA-Z]*|--recursive)$/.test(a))) return undefined;
  return c.args.find((a) => re.test(a));
}

/**
 * Package managers' `config set`, which writes the user's configuration file (`npm config set
 * script-shell X` writes `~/.npmrc`, whose `script-shell` then runs every `npm run`). Each: the
 * subcommand words, and the file (a project one with `--location=project`).
 */
const CONFIG_WRITERS: Record<string, { subs: string[][]; file: string; project?: string }> = {
  npm: {
    subs: [['config', 'set'], ['set'], ['config', 'edit'], ['config', 'delete'], ['config', 'fix']],
    file: '~/.npmrc',
    project: '.npmrc',
  },
  pnpm: { subs: [['config', 'set'], ['set'], ['config', 'delete']], file: '~/.npmrc', project: '.npmrc' },
  yarn: {
    subs: [
      ['config', 'set'],
      ['config', 'delete'],
    ],
    file: '~/.yarnrc.yml',
    project: '.yarnrc.yml',
  },
};

/** The configuration file a package manager's `config set` writes, or undefined. */
export function configWrite(c: SimpleCommand): string | undefined {
  const w = Object.hasOwn(CONFIG_WRITERS, c.program) ? CONFIG_WRITERS[c.program] : undefined;
  if (!w) return undefined;
  const ops = c.args.filter((a) => !a.startsWith('-'));
  if (!w.subs.some((sub) => sub.every((x, i) => ops[i] === x))) return undefined;
  const location =
    c.args.find((a) => a.startsWith('--location='))?.slice(11) ??
    (c.args.includes('--location') ? c.args[c.args.indexOf('--location') + 1] : undefined);
  if (location === 'project' && w.project) return w.project;
  if (c.args.some((a) => a === '-g' || a === '--global') || location === 'global') return undefined;
  return w.file;
}
