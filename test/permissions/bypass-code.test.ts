import { before, test } from 'node:test';
import assert from 'node:assert/strict';
import { initShellParser } from '../../src/permissions/shell/parser.ts';
import { checkCases, exists, read, type DamageCase, type World } from './damage.ts';

/**
 * Bypass families that run code the rules cannot see (SPEC §5, §11.5): values bash evaluates,
 * wrappers, programs with scripts of their own, Bypass mode under deny rules. Each case really
 * does its damage when bash runs it (damage.ts), and is refused or asked about.
 */

before(async () => {
  await initShellParser();
});

const X = (w: World) => exists(w, 'X');
const PAYLOAD = 'a[$(touch X)]';

test('family 1: a value the analyser cannot know, evaluated as arithmetic or a name, is not read-only', () => {
  const cmds = [
    `echo '${PAYLOAD}' >/dev/null; [[ $_ -eq 0 ]]`,
    `echo '${PAYLOAD}' >/dev/null; echo $(( _ ))`,
    `echo '${PAYLOAD}' >/dev/null; echo $[ _ ]`,
    `echo '${PAYLOAD}' >/dev/null; test -v "$_"`,
    `echo '${PAYLOAD}' >/dev/null; [ -v "$_" ]`,
    `echo '${PAYLOAD}' >/dev/null; [[ -v $_ ]]`,
    `echo '${PAYLOAD}' >/dev/null; echo \${!_}`,
    `echo '${PAYLOAD}' >/dev/null; echo \${PWD:_}`,
    `echo '${PAYLOAD}' >/dev/null; echo \${PWD:0:_}`,
    `echo '${PAYLOAD}' >/dev/null; ls \${HOME[_]}`,
    `echo '${PAYLOAD}' >/dev/null; [[ 1 -lt _ ]]`,
    `[[ '${PAYLOAD}' =~ (.*) ]] && echo $(( BASH_REMATCH ))`,
    `[[ '${PAYLOAD}' =~ (.*) ]] && [[ \${BASH_REMATCH[1]} -eq 0 ]]`,
    'for f in *; do [[ $f -eq 0 ]]; done',
    'for f in *; do echo $(( f )); done',
  ];
  const cases: DamageCase[] = cmds.flatMap((cmd) =>
    (['plan', 'normal', 'auto-accept'] as const).map((mode) => ({
      cmd,
      mode,
      files: { [PAYLOAD]: '' },
      done: X,
      want: mode === 'plan' ? ['deny' as const] : ['ask' as const],
    })),
  );
  // With a deny rule in force, Bypass refuses it too.
  cases.push({ cmd: cmds[0], mode: 'bypass', deny: ['Bash(curl:*)'], done: X, want: ['deny'] });
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= cmds.length, `damage shown for ${r.shown} commands`);
});

test('family 2: wrappers are looked through, and a program that may run a denied one asks', () => {
  const v = (w: World) => !exists(w, 'v');
  const wrapped = [
    'chrt -o 0 rm v',
    'taskset 1 rm v',
    'flock .lock rm v',
    'flock .lock -c "rm v"',
    'unshare rm v',
    'strace -f -o /dev/null rm v',
    'script -qc "rm v" /dev/null',
    'setpriv rm v',
    'prlimit --nofile=100 rm v',
    'runuser -u root -- rm v',
    'su -c "rm v" root',
    'su root -c "rm v"',
    'fakeroot rm v',
    'timeout 0.5 watch -n 0.1 rm v',
    'sg root "rm v"',
    'nice -n 1 rm v',
    'ionice -c 3 rm v',
    'stdbuf -o0 rm v',
    'setsid -w rm v',
    'env A=1 rm v',
    'nohup rm v',
    'timeout -s KILL 5 rm v',
    'xargs rm <<< v',
    'ltrace -o /dev/null rm v',
    'firejail --quiet rm v',
    'parallel rm ::: v',
    'caffeinate -i rm v',
    'uv run rm v',
    'poetry run rm v',
    'bundle exec rm v',
    'pnpm exec rm v',
    'cross-env A=1 rm v',
    'eatmydata rm v',
    'unbuffer rm v',
    'numactl -l rm v',
  ];
  const cases: DamageCase[] = wrapped.map((cmd) => ({
    cmd,
    allow: ['Bash'],
    deny: ['Bash(rm:*)'],
    files: { v: 'x' },
    done: v,
    want: ['deny'],
    needs: cmd.startsWith('timeout 0.5 watch')
      ? ['timeout', 'watch']
      : /^(runuser|su|sg) /.test(cmd) && process.getuid?.() !== 0
        ? ['root']
        : undefined,
  }));
  // Programs that run a command they are given but are not looked through: never taken for themselves.
  for (const cmd of [
    'tmux new-session -d "rm v"',
    'gdb -batch -ex "shell rm v"',
    'hyperfine "rm v"',
    'at now <<< "rm v"',
    'entr rm v <<< a',
    'mytool rm v',
  ]) {
    cases.push({ cmd, allow: ['Bash'], deny: ['Bash(rm:*)'], files: { v: 'x' }, done: v, want: ['ask'], needs: ['no-such-program'] });
    cases.push({ cmd, mode: 'bypass', deny: ['Bash(rm:*)'], files: { v: 'x' }, done: v, want: ['deny'], needs: ['no-such-program'] });
  }
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 15, `damage shown for ${r.shown} commands`);
});

test("family 3: a program's own script is code: asks under any Bash deny rule, refused in Plan Mode and Bypass", () => {
  const scripts = [
    "sed '1e touch X' a.txt",
    "sed 's/.*/touch X/e' a.txt",
    "sed -n '1{e touch X\n}' a.txt",
    'awk \'BEGIN{system("touch X")}\'',
    'awk \'BEGIN{print "" | "touch X"}\'',
    'awk \'BEGIN{"touch X" | getline}\'',
    'perl -e \'system("touch X")\'',
    'perl -ne \'system("touch X")\' a.txt',
    'python3 -c \'import os; os.system("touch X")\'',
    "python3 - <<'EOF'\nimport os\nos.system('touch X')\nEOF",
    'node -e \'require("child_process").execSync("touch X")\'',
    'node --eval \'require("fs").writeFileSync("X", "")\'',
    "vim -es -c '!touch X' -c q",
    "ex -s -c '!touch X' -c q",
    "vim -es '+!touch X' '+q'",
    "ed -s a.txt <<< '!touch X'",
    "sqlite3 :memory: '.shell touch X'",
    "sqlite3 :memory: '.system touch X'",
    "tar -cf /dev/null --checkpoint=1 --checkpoint-action=exec='touch X' a.txt",
    "tar -cf /dev/null --checkpoint=1 --checkpoint-act=exec='touch X' a.txt",
    "git ls-remote --upload-pack='touch X; true' .",
    "git grep --open-files-in-pager='touch X' hi",
    "git grep -O'touch X' hi",
    "git -c alias.x='!touch X' x",
    'find . -maxdepth 0 -fprintf X %p',
    "rsync -e 'touch X' a.txt h:",
    "dc -e '!touch X'",
    "m4 <<< 'syscmd(touch X)'",
    "mapfile -C 'touch X #' -c 1 v < a.txt",
    // sort runs it only for temporary files of a large input: its decision is checked, not its damage.
    'sort --compress-program=\'sh -c "touch X; cat"\' -S 1 a.txt',
    // These run the command only on a terminal: their decision is checked, not their damage.
    "less '+!touch X' a.txt",
    "zip -TT 'touch X' z.zip a.txt",
    "man -P 'touch X' ls",
  ];
  const tty = (cmd: string) => (/^(less|zip|man|sort) /.test(cmd) ? ['a terminal or a large input'] : undefined);
  const cases: DamageCase[] = scripts.flatMap((cmd) => [
    {
      cmd,
      allow: ['Bash'],
      deny: ['Bash(curl:*)'],
      done: X,
      want: cmd.startsWith('find') ? ['allow' as const, 'ask' as const] : ['ask' as const],
      needs: tty(cmd),
      git: cmd.startsWith('git'),
    },
    { cmd, mode: 'plan' as const, done: X, want: ['deny' as const], needs: tty(cmd), git: cmd.startsWith('git') },
    {
      cmd,
      mode: 'bypass' as const,
      deny: ['Bash(curl:*)'],
      done: X,
      want: cmd.startsWith('find') ? ['allow' as const] : ['deny' as const],
      needs: tty(cmd),
      git: cmd.startsWith('git'),
    },
  ]);
  // A script that names a denied file is refused outright.
  cases.push({
    cmd: 'python3 -c \'print(open(".env").read())\' > leak',
    allow: ['Bash'],
    deny: ['Read(.env)'],
    files: { '.env': 'SECRET' },
    done: (w) => read(w, 'leak').includes('SECRET'),
    want: ['deny'],
  });
  const r = checkCases(cases, { files: { 'a.txt': 'hi\n' } });
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= 20, `damage shown for ${r.shown} commands`);
});

test('family 4: in Bypass, a part the rules cannot see is refused while a deny rule could match it', () => {
  const v = (w: World) => !exists(w, 'v');
  const hidden = [
    "eval 'rm v'",
    "$'\\x72m' v",
    '{rm,v}',
    'c=\'rm v\'; bash -c "$c"',
    'x=r; ${x}m v',
    '$(echo rm) v',
    '`echo rm` v',
    'echo rm v | bash',
    "bash <<< 'rm v'",
    'a=(rm v); "${a[@]}"',
    "printf 'rm v' | sh",
    "source <(echo 'rm v')",
    'shopt -s expand_aliases\nalias r=rm\nr v',
    'sh -c "$(printf \'rm v\')"',
  ];
  const cases: DamageCase[] = hidden.map((cmd) => ({
    cmd,
    mode: 'bypass',
    deny: ['Bash(rm:*)'],
    files: { v: 'x' },
    done: v,
    want: ['deny'],
  }));
  // A path deny rule is enough: hidden code may read or write the file.
  cases.push({
    cmd: "eval 'cat .env > leak'",
    mode: 'bypass',
    deny: ['Read(.env)'],
    files: { '.env': 'SECRET' },
    done: (w) => read(w, 'leak').includes('SECRET'),
    want: ['deny'],
  });
  // File names known only at run time, under a Read deny rule.
  const leak = (w: World) => read(w, 'leak').includes('SECRET');
  for (const cmd of [
    'F=.env; cat "$F" > leak',
    'ls -a | grep env | xargs cat > leak',
    'find . -name .env -exec cat {} + > leak',
    'cat $(echo .e""nv) > leak',
    'cat "$(ls -a | grep env)" > leak',
  ]) {
    cases.push({ cmd, mode: 'bypass', deny: ['Read(.env)'], files: { '.env': 'SECRET' }, done: leak, want: ['deny'] });
  }
  const r = checkCases(cases);
  assert.deepEqual(r.failures, []);
  assert.ok(r.shown >= hidden.length, `damage shown for ${r.shown} commands`);
});
