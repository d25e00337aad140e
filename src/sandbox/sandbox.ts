import { spawn, type ChildProcess } from 'node:child_process';
import { chmodSync, closeSync, mkdirSync, mkdtempSync, openSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { matchesBash } from '../permissions/rules.ts';
import { programName } from '../permissions/paths.ts';
import { initShellParser, splitCommand, type ShellAnalysis } from '../permissions/shell/parser.ts';
import type { Availability } from './availability.ts';
import { bwrapArgs } from './bwrap.ts';
import type { SandboxConfig } from './config.ts';
import { expandEntries, type Expanded } from './expand.ts';
import { planMounts, removePlaceholders } from './mounts.ts';
import { FilterProxy } from './proxy.ts';
import { unixSocketFilter } from './seccomp.ts';
import { findViolations, violationReport, violationSummary } from './violations.ts';

/** The port the proxy answers on inside the sandbox's network namespace (its own loopback; nothing else listens there). */
const PROXY_PORT = 3128;

/** A command made ready to run inside: spawn `file args` with `env`, giving it `fds` as descriptors 4, 5, …; then `finish`. */
interface Prepared {
  file: string;
  args: string[];
  env: NodeJS.ProcessEnv;
  fds: number[];
  /** After the command ended: the report of what the sandbox stopped (for the model and the UI), and clean-up. Call once. */
  finish(output: string): { report?: string; summary?: string };
}

interface Session {
  root: string;
  tmp: string;
  emptyDir: string;
  emptyFile: string;
  filter?: string;
  denyRead: Expanded[];
  denyWrite: Expanded[];
}

interface Bridge {
  holder: ChildProcess;
  pid: number;
  proxy: FilterProxy;
}

type Ready = Extract<Availability, { ok: true }>;

/** Sandboxes with a temp directory on disk: removed at exit too, when a session does not end cleanly (`process.exit`). */
const live = new Set<Sandbox>();
let exitHook = false;
function track(sb: Sandbox): void {
  live.add(sb);
  if (exitHook) return;
  exitHook = true;
  process.once('exit', () => {
    for (const s of live) s.closeNow();
  });
}

/**
 * The OS sandbox of one session (SPEC §13), on Linux with bubblewrap. Every Bash command runs in
 * namespaces of its own with the filesystem read-only except the writable places, the protected
 * paths read-only even there, the denied places hidden, Unix sockets refused, and no network
 * but the session's filtering proxy. What a session needs is made at its first command: a temp
 * directory of its own (the commands' `TMPDIR`, writable; removed by `close`), the expanded
 * patterns of deny rules, and, when domains are allowed, the proxy with its bridge (a socat that
 * lives in a network namespace of its own, which every command shares). `close` ends all of it;
 * the bridge also dies with this process.
 */
export class Sandbox {
  private session?: Session;
  private bridge?: Promise<Bridge>;
  private closed = false;
  private lastSplit?: { command: string; analysis: ShellAnalysis };

  constructor(
    readonly config: SandboxConfig,
    private readonly tools: Ready,
    private readonly ctx: { projectRoot: string; home: string; guarded: string[] },
  ) {}

  get network(): boolean {
    return this.config.allowedDomains.length > 0;
  }

  /** Where commands may write: the configured places and the session's temp directory (once made). */
  get writable(): string[] {
    return this.session ? [...this.config.write, this.session.tmp] : [...this.config.write];
  }

  /**
   * Does this Bash call run inside? Not when one of its commands is in `excludedCommands`, nor
   * when the model asked to run it outside and `allowUnsandboxedCommands` lets it (both then ask
   * as any command does).
   */
  async runsInside(command: string, disable?: unknown): Promise<boolean> {
    if (disable === true && this.config.allowUnsandboxed) return false;
    if (this.config.excludedCommands.length === 0) return true;
    if (this.lastSplit?.command !== command) {
      await initShellParser();
      this.lastSplit = { command, analysis: splitCommand(command) };
    }
    return !this.lastSplit.analysis.commands.some((c) => this.config.excludedCommands.some((spec) => excludes(spec, c.text)));
  }

  /** What the model is told about the sandbox, with the Bash tool's description. */
  describe(): string {
    const c = this.config;
    const net = c.allowedDomains.length
      ? `only to ${c.allowedDomains.map((d) => d.text).join(', ')}, through the proxy in HTTP_PROXY/HTTPS_PROXY (other hosts and other protocols fail)`
      : 'closed';
    return [
      '# Sandbox',
      `Commands run inside an OS sandbox. They may write only in ${c.write.join(', ')} and in $TMPDIR (not elsewhere in /tmp); the project's .assistant/ folder, hook scripts, .git/hooks and .git/config stay read-only even there (change them with the Edit or Write tool, which asks the user).`,
      `Secrets such as ~/.ssh and ~/.aws cannot be read. The network is ${net}. Processes a command leaves in the background end when it ends.`,
      'When the sandbox stops something, the result says what, in <sandbox_violations>. Do not try to get around it: tell the user which setting would allow it' +
        (c.allowUnsandboxed
          ? ', or, if the task truly needs it, run the command again with "dangerouslyDisableSandbox": true, which asks the user.'
          : '.'),
    ].join('\n');
  }

  private start(): Session {
    if (this.session) return this.session;
    const root = mkdtempSync(join(tmpdir(), 'assistant-sandbox-'));
    const tmp = join(root, 'tmp');
    const emptyDir = join(root, 'empty');
    const emptyFile = join(root, 'empty-file');
    mkdirSync(tmp);
    mkdirSync(emptyDir);
    writeFileSync(emptyFile, '');
    chmodSync(emptyDir, 0o000);
    chmodSync(emptyFile, 0o000);
    let filter: string | undefined;
    // The filter is little-endian x86-64/arm64 code; elsewhere Unix sockets stay open (docs/sandbox.md).
    if (!this.config.unixSockets && (process.arch === 'x64' || process.arch === 'arm64')) {
      filter = join(root, 'seccomp.bpf');
      writeFileSync(filter, unixSocketFilter());
    }
    const ctx = { projectRoot: this.ctx.projectRoot, home: this.ctx.home };
    track(this);
    this.session = {
      root,
      tmp,
      emptyDir,
      emptyFile,
      filter,
      denyRead: expandEntries(this.config.denyRead, ctx).paths,
      denyWrite: expandEntries(this.config.denyWrite, ctx).paths,
    };
    return this.session;
  }

  /** Starts the proxy and the bridge into the commands' shared network namespace; once per session. */
  private startBridge(s: Session): Promise<Bridge> {
    this.bridge ??= (async () => {
      const proxy = new FilterProxy(this.config.allowedDomains);
      const sock = join(s.root, 'proxy.sock');
      await proxy.listen(sock);
      const holder = spawn(
        this.tools.bwrap,
        [
          '--die-with-parent',
          '--unshare-user',
          '--unshare-net',
          '--ro-bind',
          '/',
          '/',
          '--info-fd',
          '3',
          '--',
          this.tools.socat,
          '-d',
          '-d',
          `TCP-LISTEN:${PROXY_PORT},bind=127.0.0.1,fork,reuseaddr`,
          `UNIX-CONNECT:${sock}`,
        ],
        { stdio: ['ignore', 'ignore', 'pipe', 'pipe'] },
      );
      const pid = await new Promise<number>((resolve, reject) => {
        let info = '';
        let log = '';
        let childPid: number | undefined;
        let listening = false;
        const done = () => {
          if (childPid !== undefined && listening) resolve(childPid);
        };
        (holder.stdio[3] as NodeJS.ReadableStream).on('data', (b: Buffer) => {
          info += b.toString();
          const m = /"child-pid":\s*(\d+)/.exec(info);
          if (m) {
            childPid = Number(m[1]);
            done();
          }
        });
        holder.stderr!.on('data', (b: Buffer) => {
          if (listening) return; // socat logs every connection: read and dropped
          log += b.toString();
          if (/listening on/.test(log)) {
            listening = true;
            done();
          }
        });
        holder.once('error', reject);
        holder.once('exit', (code) =>
          reject(new Error(`the sandbox's network bridge stopped (exit ${code}): ${log.trim().split('\n').pop() ?? ''}`)),
        );
      });
      holder.once('exit', () => {
        if (!this.closed) this.bridge = undefined;
      }); // started again for the next command
      // Once running, it does not keep the process alive: `close` ends it, and it dies with its parent anyway.
      holder.unref();
      for (const s of [holder.stderr, holder.stdio[3]]) (s as { unref?: () => void } | null)?.unref?.();
      return { holder, pid, proxy };
    })();
    this.bridge.catch(() => {
      this.bridge = undefined;
    });
    return this.bridge;
  }

  /**
   * Makes `argv` (the shell and its arguments) ready to run inside, in `cwd`. Throws when the
   * sandbox cannot start (the caller reports it; the command does not run unsandboxed).
   */
  async wrap(argv: string[], cwd: string, env: NodeJS.ProcessEnv): Promise<Prepared> {
    if (this.closed) throw new Error('the sandbox has been closed');
    const s = this.start();
    const bridge = this.network ? await this.startBridge(s) : undefined;
    const plan = planMounts({ write: this.writable, guarded: this.ctx.guarded, denyWrite: s.denyWrite, denyRead: s.denyRead });
    const fds: number[] = [];
    if (s.filter) fds.push(openSync(s.filter, 'r'));
    const args = bwrapArgs({
      mounts: plan.mounts,
      emptyDir: s.emptyDir,
      emptyFile: s.emptyFile,
      cwd,
      seccompFd: s.filter ? 4 : undefined,
      shareNet: bridge !== undefined,
      disableUserns: this.tools.disableUserns,
    });
    const proxyUrl = `http://127.0.0.1:${PROXY_PORT}`;
    const netEnv = bridge
      ? {
          HTTP_PROXY: proxyUrl,
          HTTPS_PROXY: proxyUrl,
          http_proxy: proxyUrl,
          https_proxy: proxyUrl,
          ALL_PROXY: proxyUrl,
          all_proxy: proxyUrl,
          NO_PROXY: '',
          no_proxy: '',
          NODE_USE_ENV_PROXY: '1',
        }
      : {};
    const deniedBefore = bridge?.proxy.denials.length ?? 0;
    const started = Date.now();
    let finished = false;
    return {
      file: bridge ? this.tools.nsenter : this.tools.bwrap,
      args: bridge
        ? ['--user', '--net', '--preserve-credentials', '-t', String(bridge.pid), this.tools.bwrap, ...args, ...argv]
        : [...args, ...argv],
      env: { ...env, TMPDIR: s.tmp, TMP: s.tmp, TEMP: s.tmp, ASSISTANT_SANDBOX: '1', ...netEnv },
      fds,
      finish: (output) => {
        if (finished) return {};
        finished = true;
        for (const fd of fds) {
          try {
            closeSync(fd);
          } catch {
            /* closed */
          }
        }
        removePlaceholders(plan);
        const denials = bridge ? bridge.proxy.denials.slice(deniedBefore).filter((d) => d.at >= started) : [];
        const violations = findViolations(output, {
          cwd,
          home: this.ctx.home,
          write: plan.write,
          readOnly: plan.readOnly,
          hidden: plan.hidden,
          network: this.network,
          denials,
        });
        if (violations.length === 0) return {};
        return {
          report: violationReport(violations, { allowUnsandboxed: this.config.allowUnsandboxed }),
          summary: violationSummary(violations),
        };
      },
    };
  }

  /** Stops the proxy and the bridge and removes the session's temp directory. Never throws. */
  async close(): Promise<void> {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    const bridge = await this.bridge?.catch(() => undefined);
    if (bridge) {
      bridge.holder.kill('SIGKILL');
      await bridge.proxy.close();
    }
    if (this.session) {
      try {
        chmodSync(this.session.emptyDir, 0o700);
      } catch {
        /* gone */
      }
      rmSync(this.session.root, { recursive: true, force: true });
    }
  }

  /** For a process that is about to exit: the same clean-up, synchronously (the bridge dies with the process). */
  closeNow(): void {
    if (this.closed) return;
    this.closed = true;
    live.delete(this);
    if (this.session) {
      try {
        chmodSync(this.session.emptyDir, 0o700);
      } catch {
        /* gone */
      }
      rmSync(this.session.root, { recursive: true, force: true });
    }
  }
}

/** An `excludedCommands` entry, written like a Bash rule (`docker`, `docker:*`, `npm run e2e`), covers this simple command. */
function excludes(spec: string, text: string): boolean {
  const [first, ...rest] = spec.trim().split(/\s+/);
  const bare = first.replace(/:\*$/, '');
  const normal = [programName(bare) + (first.endsWith(':*') ? ':*' : ''), ...rest].join(' ');
  // A bare program name (`docker`) means the program with any arguments, as Claude Code reads it.
  return matchesBash(normal, text) || (rest.length === 0 && !normal.includes('*') && matchesBash(`${normal}:*`, text));
}
