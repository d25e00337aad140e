import { execFileSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, realpathSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { setTimeout as sleep } from 'node:timers/promises';
import { CLI, cleanEnv } from './cli.ts';

/**
 * The built CLI in a real terminal: a tmux server of its own (unique `-L` socket), one window of a
 * fixed size, keys sent with send-keys, the screen read with capture-pane. Tests wait for text
 * with a deadline instead of sleeping. Always `close()` in a finally block.
 */
export class TmuxCli {
  private constructor(
    readonly socket: string,
    private readonly dir: string,
  ) {}

  /**
   * `afterExit`: shell commands the pane runs once the CLI has exited (e.g. `stty -a`, to see the terminal it left).
   * `trusted: false`: the folder is not trusted yet, so the session opens with the folder-trust question
   * (SPEC §11.15); by default the test's HOME already trusts `cwd`.
   */
  static start(
    args: string[],
    o: {
      cwd: string;
      home: string;
      env?: Record<string, string | undefined>;
      width?: number;
      height?: number;
      afterExit?: string;
      trusted?: boolean;
    },
  ): TmuxCli {
    if (o.trusted !== false) trustInHome(o.home, o.cwd);
    const socket = `assistant-test-${process.pid}-${Math.random().toString(36).slice(2, 10)}`;
    const dir = mkdtempSync(join(tmpdir(), 'assistant-tmux-'));
    // CI set, as on the CI machines: the screen must not depend on it (Ink and chalk read it).
    const env = cleanEnv(o.home, { TERM: 'xterm-256color', CI: 'true', ...o.env });
    const q = (s: string) => `'${s.replace(/'/g, `'\\''`)}'`;
    const vars = Object.entries(env)
      .map(([k, v]) => `${k}=${q(String(v))}`)
      .join(' ');
    // After the CLI exits, the pane stays to show its exit code and what it left on the screen.
    // ASSISTANT_TEST_CLI: another build of the CLI (a private one, while someone else rebuilds dist/).
    const cli = process.env.ASSISTANT_TEST_CLI || CLI;
    writeFileSync(
      join(dir, 'run.sh'),
      `cd ${q(o.cwd)}\nenv -i ${vars} ${q(process.execPath)} ${q(cli)} ${args.map(q).join(' ')}\necho "[exit $?]"\n${o.afterExit ? `${o.afterExit}\n` : ''}sleep 600\n`,
    );
    execFileSync('tmux', [
      '-L',
      socket,
      '-f',
      '/dev/null',
      'new-session',
      '-d',
      '-s',
      'main',
      '-x',
      String(o.width ?? 100),
      '-y',
      String(o.height ?? 30),
      `bash ${q(join(dir, 'run.sh'))}`,
    ]);
    return new TmuxCli(socket, dir);
  }

  private tmux(...args: string[]): string {
    return execFileSync('tmux', ['-L', this.socket, ...args], { encoding: 'utf8' });
  }

  /** The visible screen as text (`ansi`: with colours and attributes, as `capture-pane -e`). */
  screen(ansi = false): string {
    return this.tmux('capture-pane', '-p', ...(ansi ? ['-e'] : []), '-t', 'main');
  }

  /** Text typed as is (no key names). */
  type(text: string): void {
    this.tmux('send-keys', '-t', 'main', '-l', text);
  }

  /** Keys by tmux name: Enter, Escape, BTab (Shift+Tab), C-c, C-d, Up, Down… */
  keys(...names: string[]): void {
    this.tmux('send-keys', '-t', 'main', ...names);
  }

  /** Waits until the screen matches; returns it. Fails with the last screen after `timeoutMs`. */
  async waitFor(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.screen();
      if (typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last)) return last;
      await sleep(50);
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for ${pattern}. Screen:\n${last}`);
  }

  /** Waits until `ok(screen)` holds; returns that screen. Fails with the last screen after `timeoutMs`. */
  async waitUntil(ok: (screen: string) => boolean, what: string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.screen();
      if (ok(last)) return last;
      await sleep(50);
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for ${what}. Screen:\n${last}`);
  }

  /** Waits until the screen stops matching (a dialog closed, a spinner stopped). */
  async waitGone(pattern: RegExp | string, timeoutMs = 15_000): Promise<string> {
    const deadline = Date.now() + timeoutMs;
    let last = '';
    while (Date.now() < deadline) {
      last = this.screen();
      if (!(typeof pattern === 'string' ? last.includes(pattern) : pattern.test(last))) return last;
      await sleep(50);
    }
    throw new Error(`Timed out after ${timeoutMs} ms waiting for ${pattern} to go. Screen:\n${last}`);
  }

  /** Types a prompt and presses Enter once the input box shows it. */
  async submit(text: string): Promise<void> {
    this.type(text);
    await this.waitFor(text.slice(0, 40));
    this.keys('Enter');
  }

  /** The screen and the scrollback above it, as text (`capture-pane -S -`). */
  scrollback(): string {
    return this.tmux('capture-pane', '-p', '-S', '-', '-t', 'main');
  }

  /** The pane's title, as the program set it (OSC 0 / OSC 2). */
  title(): string {
    return this.tmux('display-message', '-p', '-t', 'main', '#{pane_title}').replace(/\n$/, '');
  }

  /** Where the terminal's cursor is: column and row, from 0 at the top-left of the screen. */
  cursor(): { x: number; y: number } {
    const [x, y] = this.tmux('display-message', '-p', '-t', 'main', '#{cursor_x} #{cursor_y}').trim().split(' ').map(Number);
    return { x, y };
  }

  /** Whether the program rang the terminal's bell (tmux's window bell flag). */
  rang(): boolean {
    return this.tmux('display-message', '-p', '-t', 'main', '#{window_bell_flag}').trim() === '1';
  }

  /** Whether the terminal's cursor is shown (tmux's `cursor_flag`: a program hid it with `ESC[?25l`). */
  cursorVisible(): boolean {
    return this.tmux('display-message', '-p', '-t', 'main', '#{cursor_flag}').trim() === '1';
  }

  /** The CLI's process id (the pane's shell runs it as its only child), or undefined once it has exited. */
  cliPid(): number | undefined {
    const pane = this.tmux('display-message', '-p', '-t', 'main', '#{pane_pid}').trim();
    try {
      const out = execFileSync('pgrep', ['-P', pane, '-f', 'assistant'], { encoding: 'utf8' }).trim();
      return out ? Number(out.split('\n')[0]) : undefined;
    } catch {
      return undefined;
    }
  }

  /** Resizes the window, as a user dragging the terminal would. */
  resize(width: number, height: number): void {
    this.tmux('resize-window', '-t', 'main', '-x', String(width), '-y', String(height));
  }

  close(): void {
    try {
      this.tmux('kill-server');
    } catch {
      /* already gone */
    }
    rmSync(this.dir, { recursive: true, force: true });
    // kill-server can leave its socket file behind.
    rmSync(join(process.env.TMUX_TMPDIR ?? '/tmp', `tmux-${process.getuid?.() ?? 0}`, this.socket), { force: true });
  }
}

/** Marks `dir` trusted in `home`'s user state, as answering "yes" to the folder-trust question does. */
export function trustInHome(home: string, dir: string): void {
  mkdirSync(join(home, '.assistant'), { recursive: true });
  writeFileSync(join(home, '.assistant', 'state.json'), JSON.stringify({ trustedFolders: [realpathSync(dir)] }));
}
