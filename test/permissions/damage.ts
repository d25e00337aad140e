import assert from 'node:assert/strict';
import { spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readFileSync, symlinkSync, writeFileSync } from 'node:fs';
import { delimiter, join } from 'node:path';
import { knownKinds } from '../../src/tools/kinds.ts';
import { decide, type RuledDecision } from '../../src/permissions/decide.ts';
import { fsLookup } from '../../src/permissions/look.ts';
import type { Behavior, PermissionMode } from '../../src/permissions/modes.ts';
import { sessionGuards } from '../../src/permissions/protected.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { splitCommand } from '../../src/permissions/shell/parser.ts';
import { makeProject } from '../fakes/project.ts';

/**
 * Bypass cases with their damage shown (SPEC §11): each command is run with real bash in a fresh
 * project and HOME, and the side effect it is known for must happen there (so the case is a real
 * attack, and the check could fail), while the decision for it refuses or asks.
 */

export interface World {
  dir: string;
  home: string;
}

/** Words bash itself runs: no program is needed for them. */
const SHELL_WORDS = new Set([
  'for',
  'while',
  'until',
  'if',
  'case',
  'select',
  'function',
  'time',
  'eval',
  'source',
  'alias',
  'printf',
  'echo',
  'read',
  'set',
  'export',
  'declare',
  'local',
  'cd',
  'test',
  'let',
  'exec',
  'command',
  'builtin',
]);

export interface DamageCase {
  cmd: string;
  /** Files of the project (`~/x`: of HOME). */
  files?: Record<string, string>;
  /** Symlinks to make first: link → target. */
  links?: Record<string, string>;
  /** Make the project a git repository with one commit. */
  git?: boolean;
  /** Changes to make after the files (and the commit) are there. */
  prepare?: (w: World) => void;
  /** The damage has happened (a file appeared or changed; `out` is what the command printed). */
  done: (w: World, out: string) => boolean;
  /** Programs the damage needs; without them only the decision is checked. */
  needs?: string[];
  mode?: PermissionMode;
  allow?: string[];
  deny?: string[];
  /** Added directories (`--add-dir`), relative to the project; created. */
  add?: string[];
  /** Hook commands of the settings (their scripts are protected). */
  hooks?: string[];
  /** The decisions that pass (default: anything but allow). */
  want?: Behavior[];
}

const onPath = new Map<string, boolean>();
export function installed(program: string): boolean {
  let v = onPath.get(program);
  if (v === undefined) {
    v = (process.env.PATH ?? '').split(delimiter).some((d) => d && existsSync(join(d, program)));
    onPath.set(program, v);
  }
  return v;
}

export function world(c: Pick<DamageCase, 'files' | 'links' | 'git' | 'add' | 'prepare'>): World {
  const w = makeProject();
  for (const [rel, content] of Object.entries(c.files ?? {})) {
    const p = rel.startsWith('~/') ? join(w.home, rel.slice(2)) : join(w.dir, rel);
    mkdirSync(join(p, '..'), { recursive: true });
    writeFileSync(p, content);
  }
  for (const d of c.add ?? []) mkdirSync(join(w.dir, d), { recursive: true });
  if (c.git) {
    const git = (...args: string[]) => spawnSync('git', ['-c', 'user.email=a@b', '-c', 'user.name=a', ...args], { cwd: w.dir });
    git('init', '-q', '.');
    git('add', '-A');
    git('commit', '-qm', 'init', '--allow-empty');
  }
  for (const [link, target] of Object.entries(c.links ?? {})) symlinkSync(target, join(w.dir, link));
  c.prepare?.(w);
  return w;
}

/** Runs the command with bash in the project, HOME set to the world's; returns what it printed. */
export function runBash(w: World, command: string): string {
  const r = spawnSync('bash', ['-c', command], {
    cwd: w.dir,
    input: '',
    timeout: 10_000,
    encoding: 'utf8',
    env: { PATH: process.env.PATH, HOME: w.home, LANG: 'C', TERM: 'dumb' },
  });
  return `${r.stdout ?? ''}${r.stderr ?? ''}`;
}

export function decideIn(
  w: World,
  c: Pick<DamageCase, 'cmd' | 'mode' | 'allow' | 'deny' | 'add' | 'hooks'>,
  tool = 'Bash',
  input?: Record<string, unknown>,
): RuledDecision {
  const { rules, errors } = buildRules([
    { kind: 'allow', rules: c.allow ?? [], source: 'test' },
    { kind: 'deny', rules: c.deny ?? [], source: 'test' },
  ]);
  assert.deepEqual(errors, []);
  return decide(tool, input ?? { command: c.cmd }, {
    mode: c.mode ?? 'normal',
    projectRoot: w.dir,
    additionalDirs: (c.add ?? []).map((d) => join(w.dir, d)),
    home: w.home,
    rules,
    shell: tool === 'Bash' ? splitCommand(c.cmd) : undefined,
    guarded: sessionGuards(
      w.dir,
      w.home,
      (c.hooks ?? []).map((command) => ({ command })),
    ),
    kinds: knownKinds,
    look: fsLookup,
  });
}

export const read = (w: World, rel: string): string => {
  const p = rel.startsWith('~/') ? join(w.home, rel.slice(2)) : join(w.dir, rel);
  try {
    return readFileSync(p, 'utf8');
  } catch {
    return '';
  }
};
export const exists = (w: World, rel: string): boolean => existsSync(rel.startsWith('~/') ? join(w.home, rel.slice(2)) : join(w.dir, rel));

/**
 * Checks every case: the damage has not happened yet, the decision is one of `want`, and (when
 * the programs are there) running the command does the damage. Cases with the same command and
 * files share one project, and the command runs once. Returns the failures, and how many commands
 * showed their damage.
 */
export function checkCases(
  cases: DamageCase[],
  defaults: Partial<DamageCase> = {},
  opts: { decisionsOnly?: boolean } = {},
): { failures: string[]; shown: number } {
  const failures: string[] = [];
  let shown = 0;
  const groups = new Map<string, DamageCase[]>();
  for (const one of cases) {
    const c = { ...defaults, ...one, files: { ...defaults.files, ...one.files } };
    const key = JSON.stringify([c.cmd, c.files, c.links, c.git, c.add]);
    groups.set(key, [...(groups.get(key) ?? []), c]);
  }
  for (const group of groups.values()) {
    const c = group[0];
    const w = world(c);
    for (const k of group) {
      const d = decideIn(w, k);
      const want = k.want ?? ['ask', 'deny'];
      if (!want.includes(d.behavior))
        failures.push(`${k.mode ?? 'normal'}: ${JSON.stringify(k.cmd)} → ${d.behavior} (${d.reason}), want ${want.join('/')}`);
    }
    if (opts.decisionsOnly) continue;
    if (c.done(w, '')) {
      failures.push(`${JSON.stringify(c.cmd)}: the damage is there before the command runs`);
      continue;
    }
    const bin = c.cmd.trimStart().split(/\s/)[0];
    const needs = c.needs ?? (/^[a-z][\w.-]*$/.test(bin) && !SHELL_WORDS.has(bin) ? [bin] : []);
    if (!needs.every(installed)) continue;
    const out = runBash(w, c.cmd);
    if (c.done(w, out)) shown++;
    else failures.push(`${JSON.stringify(c.cmd)}: bash did not do the damage the case is about (${out.slice(0, 200)})`);
  }
  return { failures, shown };
}
