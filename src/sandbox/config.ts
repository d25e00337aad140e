import { join } from 'node:path';
import { patternBase } from '../permissions/paths.ts';
import type { RuleSet } from '../permissions/rules.ts';
import { parseDomain, type DomainPattern } from './domains.ts';
import type { SandboxSettings } from './settings.ts';

/** Read by no sandboxed command unless the user runs it outside (SPEC §13). */
export const DEFAULT_DENY_READ = ['~/.ssh', '~/.aws', '~/.gnupg', '~/.config/gcloud'];

/**
 * A place the sandbox hides or keeps read-only: a path, or a gitignore-style pattern (a rule's)
 * matched below `base` and expanded to what exists (sandbox/expand.ts). `source` says where it
 * comes from, for the report the model gets.
 */
export type PathEntry = { kind: 'path'; path: string; source: string } | { kind: 'pattern'; pattern: string; base: string; source: string };

/** What the sandbox allows, from settings and rules; pure (SPEC §13). */
export interface SandboxConfig {
  autoAllow: boolean;
  allowUnsandboxed: boolean;
  /** Bash rule specifiers of commands that run outside. */
  excludedCommands: string[];
  /** Where commands may write, absolute: the project, its additional directories, `allowWrite`. The session's temp directory is added when it exists. */
  write: string[];
  /** Kept read-only inside the writable places: `denyWrite` and Edit/Write deny rules. */
  denyWrite: PathEntry[];
  /** Hidden: the defaults, `denyRead` and Read deny rules. */
  denyRead: PathEntry[];
  allowedDomains: DomainPattern[];
  /** Unix sockets may be opened (`allowAllUnixSockets`). */
  unixSockets: boolean;
  /** Entries that mean nothing here (a bad domain, a pattern where a path is needed), for a warning. */
  problems: string[];
}

interface ConfigInput {
  settings: SandboxSettings | undefined;
  projectRoot: string;
  home: string;
  additionalDirs: readonly string[];
  rules: RuleSet;
}

const GLOB = /[*?[\]{}!]/;

/**
 * One path as written in sandbox settings or a rule: `//abs`, `~/x`, and `x`, `./x`, `/x` from the
 * project root, as permission rule patterns are written (permissions/paths.ts). A trailing `/**`
 * or `/` names the directory itself. A name without a slash and with no anchor (`.env`) matches at
 * any depth, as in gitignore, so it is a pattern.
 */
export function pathEntry(written: string, source: string, ctx: { projectRoot: string; home: string }): PathEntry {
  const p = written.trim();
  if (p === '~' || p === '~/') return { kind: 'path', path: ctx.home, source };
  const { base, rest } = patternBase(p, ctx.projectRoot, ctx.home);
  const anchored = base !== ctx.projectRoot || rest.startsWith('/') || rest.replace(/\/+$/, '').includes('/');
  const dir = rest.replace(/\/\*\*$/, '').replace(/(.)\/+$/, '$1');
  if (!GLOB.test(dir) && anchored) return { kind: 'path', path: join(base, dir), source };
  return { kind: 'pattern', pattern: p, base, source };
}

/** Settings and rules → what the sandbox allows. */
export function sandboxConfig(input: ConfigInput): SandboxConfig {
  const s = input.settings ?? {};
  const problems: string[] = [];
  const ctx = { projectRoot: input.projectRoot, home: input.home };

  const write = [input.projectRoot, ...input.additionalDirs];
  for (const w of s.filesystem?.allowWrite ?? []) {
    const e = pathEntry(w, 'sandbox.filesystem.allowWrite', ctx);
    if (e.kind === 'path') write.push(e.path);
    else if (!GLOB.test(e.pattern)) write.push(join(e.base, e.pattern));
    else problems.push(`sandbox.filesystem.allowWrite "${w}": write a path, not a pattern; the entry is ignored`);
  }

  const denyRead = [
    ...DEFAULT_DENY_READ.map((p) => pathEntry(p, "the sandbox's default denyRead", ctx)),
    ...(s.filesystem?.denyRead ?? []).map((p) => pathEntry(p, 'sandbox.filesystem.denyRead', ctx)),
    ...input.rules.deny
      .filter((r) => r.tool === 'Read' && r.specifier !== undefined)
      .map((r) => pathEntry(r.specifier!, `the rule "${r.text}"`, ctx)),
  ];
  const denyWrite = [
    ...(s.filesystem?.denyWrite ?? []).map((p) => pathEntry(p, 'sandbox.filesystem.denyWrite', ctx)),
    ...input.rules.deny
      .filter((r) => (r.tool === 'Edit' || r.tool === 'Write') && r.specifier !== undefined)
      .map((r) => pathEntry(r.specifier!, `the rule "${r.text}"`, ctx)),
  ];

  const allowedDomains: DomainPattern[] = [];
  const domains = [
    ...(s.network?.allowedDomains ?? []),
    ...input.rules.allow
      .filter((r) => r.tool === 'WebFetch' && r.specifier?.startsWith('domain:'))
      .map((r) => r.specifier!.slice('domain:'.length)),
  ];
  for (const d of domains) {
    const parsed = parseDomain(d);
    if (typeof parsed === 'string') problems.push(`sandbox.network.allowedDomains: ${parsed}; the entry is ignored`);
    else if (!allowedDomains.some((x) => x.host === parsed.host && x.port === parsed.port)) allowedDomains.push(parsed);
  }

  return {
    autoAllow: s.autoAllowBashIfSandboxed ?? true,
    allowUnsandboxed: s.allowUnsandboxedCommands ?? false,
    excludedCommands: s.excludedCommands ?? [],
    write: [...new Set(write)],
    denyWrite,
    denyRead,
    allowedDomains,
    unixSockets: s.network?.allowAllUnixSockets ?? false,
    problems,
  };
}
