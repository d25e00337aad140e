import { existsSync } from 'node:fs';
import { join, dirname } from 'node:path';
import type { PermissionMode } from '../permissions/modes.ts';
import template from './system-prompt.md';

interface EnvironmentFacts {
  cwd: string;
  isGitRepo: boolean;
  platform: string;
  shell: string;
  /** YYYY-MM-DD */
  date: string;
  model: string;
}

const MODE_TEXT: Record<PermissionMode, string> = {
  normal: "Normal: reading and searching run freely; edits, writes and commands may need the user's approval.",
  'auto-accept': 'Auto-Accept: edits and writes inside the project run without asking; commands may need approval.',
  plan: 'Plan Mode: do not change anything. Read and search, then write your plan to plan.md in the project root and stop. Every other write or command that changes something is refused by the tools.',
  bypass: "Bypass: every tool call runs without asking, except what the user's rules deny.",
};

function isGitRepo(dir: string): boolean {
  for (let d = dir; ; d = dirname(d)) {
    if (existsSync(join(d, '.git'))) return true;
    if (dirname(d) === d) return false;
  }
}

export function environmentFacts(cwd: string, model: string, env: NodeJS.ProcessEnv, now = new Date()): EnvironmentFacts {
  return {
    cwd,
    isGitRepo: isGitRepo(cwd),
    platform: process.platform,
    shell: env.SHELL ?? '/bin/sh',
    date: now.toISOString().slice(0, 10),
    model,
  };
}

/** The built-in instructions with the mode and environment facts filled in. */
export function buildSystemPrompt(facts: EnvironmentFacts, mode: PermissionMode, extra: string[] = []): string {
  const filled = template
    .replace('{{mode}}', MODE_TEXT[mode])
    .replace('{{cwd}}', facts.cwd)
    .replace('{{git}}', facts.isGitRepo ? 'yes' : 'no')
    .replace('{{platform}}', facts.platform)
    .replace('{{shell}}', facts.shell)
    .replace('{{date}}', facts.date)
    .replace('{{model}}', facts.model)
    .trimEnd();
  return [filled, ...extra.filter(Boolean)].join('\n\n');
}

/** A subagent's system prompt (SPEC §14): its agent's prompt, then the mode, the environment facts and ASSISTANT.md. */
export function subagentSystemPrompt(agentPrompt: string, facts: EnvironmentFacts, mode: PermissionMode, extra: string[] = []): string {
  const env = template
    .slice(template.indexOf('# Mode'))
    .replace('{{mode}}', MODE_TEXT[mode])
    .replace('{{cwd}}', facts.cwd)
    .replace('{{git}}', facts.isGitRepo ? 'yes' : 'no')
    .replace('{{platform}}', facts.platform)
    .replace('{{shell}}', facts.shell)
    .replace('{{date}}', facts.date)
    .replace('{{model}}', facts.model)
    .trimEnd();
  return [agentPrompt.trim(), env, ...extra.filter(Boolean)].join('\n\n');
}
