import { isAbsolute, resolve } from 'node:path';
import type { Expanded } from './expand.ts';
import { within } from './mounts.ts';
import type { NetworkDenial } from './proxy.ts';

interface Violation {
  kind: 'write' | 'read' | 'network';
  target: string;
  why: string /** What would allow it. */;
  fix: string;
}

interface ReportContext {
  cwd: string;
  home: string;
  write: readonly string[];
  readOnly: readonly Expanded[];
  hidden: readonly Expanded[];
  /** The proxy runs (allowedDomains is not empty). */
  network: boolean;
  denials: readonly NetworkDenial[];
}

const MAX_EACH = 8;

/** Quoted words and the word before `: <error>` in one line of error output. */
function candidates(line: string, error: RegExp): string[] {
  const out: string[] = [];
  for (const m of line.matchAll(/'([^']+)'|"([^"]+)"|\u2018([^\u2019]+)\u2019|`([^`']+)'/g)) out.push(m[1] ?? m[2] ?? m[3] ?? m[4]);
  const before = new RegExp(`(?:^|\\s)(\\S+?):\\s*(?:${error.source})`, 'i').exec(line);
  if (before) out.push(before[1]);
  return out.filter((w) => w.includes('/') || /^[\w.-]+$/.test(w)).filter((w) => !/^(line|bash|sh|zsh|open|mkdir|touch|cp|mv|rm)$/.test(w));
}

const abs = (p: string, ctx: ReportContext) =>
  p === '~' || p.startsWith('~/') ? ctx.home + p.slice(1) : isAbsolute(p) ? resolve(p) : resolve(ctx.cwd, p);
const deepest = (list: readonly Expanded[], p: string) =>
  list.filter((x) => within(x.path, p)).sort((a, b) => b.path.length - a.path.length)[0];

/**
 * What the sandbox stopped, read from the command's output (SPEC §13): the kernel says only
 * "Read-only file system" or "Permission denied", so the paths named in such lines are matched
 * against the sandbox's own lists to say which rule stopped them; connections come from the
 * proxy's record. Best effort: a program that hides its errors leaves nothing to read here.
 */
export function findViolations(output: string, ctx: ReportContext): Violation[] {
  const found = new Map<string, Violation>();
  const add = (v: Violation) => {
    const k = `${v.kind} ${v.target}`;
    if (!found.has(k) && [...found.values()].filter((x) => x.kind === v.kind).length < MAX_EACH) found.set(k, v);
  };
  const writable = (p: string) => ctx.write.some((w) => within(w, p));
  for (const line of output.split('\n')) {
    if (/read-only file system|EROFS/i.test(line)) {
      for (const c of candidates(line, /read-only file system|EROFS/)) {
        const p = abs(c, ctx);
        const guard = deepest(ctx.readOnly, p);
        if (guard?.source === 'protected')
          add({
            kind: 'write',
            target: p,
            why: `${guard.path} is protected (settings, hooks and repository configuration stay read-only)`,
            fix: 'change it with the Edit or Write tool, which asks the user',
          });
        else if (guard)
          add({ kind: 'write', target: p, why: `${guard.path} is read-only (${guard.source})`, fix: `${guard.source} keeps it read-only` });
        else if (!writable(p))
          add({
            kind: 'write',
            target: p,
            why: `outside the places sandboxed commands may write (${ctx.write.join(', ')})`,
            fix: 'the setting sandbox.filesystem.allowWrite',
          });
      }
    }
    if (/permission denied|EACCES|operation not permitted|EPERM/i.test(line)) {
      for (const c of candidates(line, /permission denied|EACCES|operation not permitted|EPERM/)) {
        const p = abs(c, ctx);
        const h = deepest(ctx.hidden, p);
        if (h) add({ kind: 'read', target: p, why: `${h.path} is hidden (${h.source})`, fix: `${h.source} hides it` });
      }
    }
    const dns =
      /Could not resolve (?:host|proxy): (\S+)|getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (\S+)|Failed to resolve '([^']+)'|NameResolutionError.*host='([^']+)'/.exec(
        line,
      );
    if (dns) {
      const host = (dns[1] ?? dns[2] ?? dns[3] ?? dns[4]).replace(/[,;)]+$/, '');
      add({
        kind: 'network',
        target: host,
        why: ctx.network
          ? "sandboxed commands reach the network only through the sandbox's proxy (HTTP_PROXY, HTTPS_PROXY), and only to allowed domains"
          : 'sandboxed commands have no network (sandbox.network.allowedDomains is empty)',
        fix: 'the setting sandbox.network.allowedDomains',
      });
    }
  }
  for (const d of ctx.denials)
    add({ kind: 'network', target: `${d.host}:${d.port}`, why: d.reason, fix: 'the setting sandbox.network.allowedDomains' });
  return [...found.values()];
}

const VERB = { write: 'writing', read: 'reading', network: 'connecting to' } as const;

/** The block appended to the tool result, for the model to act on (ask for a rule, or retry outside). */
export function violationReport(violations: readonly Violation[], o: { allowUnsandboxed: boolean }): string {
  const lines = violations.map((v) => `- ${VERB[v.kind]} ${v.target}: ${v.why}`);
  const fixes = [...new Set(violations.map((v) => v.fix))].join('; ');
  const retry = o.allowUnsandboxed ? ' Or run the command again with "dangerouslyDisableSandbox": true, which asks the user.' : '';
  return `<sandbox_violations>\nThe OS sandbox stopped this command:\n${lines.join('\n')}\nDo not work around it. If the task needs this, tell the user what would allow it: ${fixes}.${retry}\n</sandbox_violations>`;
}

/** One line for people: `sandbox stopped: writing /x; connecting to h:80`. */
export function violationSummary(violations: readonly Violation[]): string {
  return `sandbox stopped: ${violations.map((v) => `${VERB[v.kind]} ${v.target}`).join('; ')}`;
}
