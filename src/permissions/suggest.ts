import { relative, isAbsolute, dirname } from 'node:path';
import type { ShellAnalysis, SimpleCommand } from './shell/parser.ts';

function bashRule(c: SimpleCommand): string {
  const [sub] = c.args;
  if (c.args.length === 0) return `Bash(${c.program})`;
  if (sub && /^[a-z][a-z0-9-]*$/.test(sub)) return `Bash(${c.program} ${sub}:*)`;
  return `Bash(${c.program}:*)`;
}

/**
 * The narrowest rules that would have allowed this call, for "allow always" (SPEC §5): one rule
 * per part of a compound command (`git status && npm test` → `Bash(git status:*)`, `Bash(npm test)`),
 * the file itself for edits, the directory for reads outside the project. Empty when no rule can
 * be offered (a command that cannot be analysed).
 */
export function suggestRules(tool: string, input: Record<string, unknown>, projectRoot: string, shell?: ShellAnalysis): string[] {
  if (tool === 'Bash') {
    if (!shell || shell.unanalysable.length) return [];
    return [...new Set(shell.commands.filter((c) => c.program !== '').map(bashRule))];
  }
  const raw = (input.file_path ?? input.path) as unknown;
  if (typeof raw !== 'string' || raw === '') return [tool];
  const abs = isAbsolute(raw) ? raw : `${projectRoot}/${raw}`;
  const rel = relative(projectRoot, abs);
  const outside = rel.startsWith('..') || isAbsolute(rel);
  if (tool === 'Edit' || tool === 'Write') return [`Edit(${outside ? `/${abs}` : `/${rel}`})`];
  const dir = tool === 'Read' ? dirname(abs) : abs;
  return [`Read(${outside ? `/${dir}/**` : `/${relative(projectRoot, dir) || '.'}/**`})`.replace('/./**', '/**')];
}
