import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { matcherProblem } from './matcher.ts';
import { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, type HookEvent, type HookSpec } from './schema.ts';
import type { Settings } from '../config/schema.ts';

const HANDLER_KEYS = new Set(['type', 'command', 'timeout', 'failClosed']);

/** Every hook of every settings file, flattened in file order, with its source (SPEC §4: lists merge). */
export function collectHooks(sources: Array<{ file: string; settings: Settings }>): { hooks: HookSpec[]; warnings: string[] } {
  const hooks: HookSpec[] = [];
  const warnings: string[] = [];
  for (const { file, settings } of sources) {
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        warnings.push(`${file}: unknown hook event "${event}" is ignored (events: ${HOOK_EVENTS.join(', ')})`);
        continue;
      }
      for (const group of groups) {
        for (const key of Object.keys(group)) {
          if (key !== 'matcher' && key !== 'hooks') warnings.push(`${file}: ${event} group key "${key}" is not supported and is ignored`);
        }
        for (const h of group.hooks) {
          for (const key of Object.keys(h)) {
            if (!HANDLER_KEYS.has(key)) warnings.push(`${file}: ${event} hook "${h.command}": key "${key}" is not supported and is ignored${key === 'if' ? ' (the hook runs for every call its matcher selects)' : ''}`);
          }
        }
        const problem = matcherProblem(group.matcher);
        if (problem) warnings.push(`${file}: ${event} ${problem}; those hooks never run`);
        for (const h of group.hooks) {
          hooks.push({
            event: event as HookEvent,
            matcher: group.matcher,
            command: h.command,
            timeoutMs: h.timeout !== undefined ? h.timeout * 1000 : DEFAULT_HOOK_TIMEOUT_MS,
            failClosed: h.failClosed ?? false,
            source: file,
          });
        }
      }
    }
  }
  return { hooks, warnings };
}

const SHELL_WORDS = new Set(['echo', 'printf', 'cat', 'true', 'false', 'exit', 'test', '[', '[[', 'cd', 'if', 'for', 'while', 'case', 'read', 'export', 'set', 'exec', 'eval', 'command', 'builtin', 'source', '.', ':', '{', '(', '!', 'time', 'env']);

/**
 * The program a hook command starts, with the project-directory variables expanded (and a leading
 * `~/` when `home` is given). The first shell word may join quoted and unquoted pieces, as in
 * Claude Code's documented `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`.
 */
export function programOf(command: string, projectDir: string, home?: string): string | undefined {
  let rest = command.trim();
  while (/^[A-Za-z_][A-Za-z0-9_]*=\S*\s+/.test(rest)) rest = rest.replace(/^[A-Za-z_][A-Za-z0-9_]*=\S*\s+/, '');
  const m = /^(?:"[^"]*"|'[^']*'|[^\s;&|<>()"'])+/.exec(rest);
  if (!m) return undefined;
  let word = '';
  for (const piece of m[0].match(/"[^"]*"|'[^']*'|[^"']+/g) ?? []) {
    if (piece.startsWith("'")) { word += piece.slice(1, -1); continue; }
    word += (piece.startsWith('"') ? piece.slice(1, -1) : piece).replace(/\$\{?(ASSISTANT|CLAUDE)_PROJECT_DIR\}?/g, projectDir);
  }
  if (home && /^~(\/|$)/.test(m[0])) word = home + word.slice(1);
  return word;
}

function executable(p: string): boolean {
  try { accessSync(p, constants.X_OK); return statSync(p).isFile(); } catch { return false; }
}

/**
 * Hook commands whose program cannot be found (SPEC §4: reported at start-up and by doctor).
 * A mistyped guard path is the commonest way a guard silently does nothing.
 */
export function missingPrograms(hooks: readonly HookSpec[], projectDir: string, env: NodeJS.ProcessEnv): string[] {
  const out: string[] = [];
  const seen = new Set<string>();
  for (const h of hooks) {
    if (seen.has(h.command)) continue;
    seen.add(h.command);
    const prog = programOf(h.command, projectDir, env.HOME);
    if (!prog || SHELL_WORDS.has(prog) || prog.includes('$')) continue;
    if (prog.includes('/')) {
      const p = isAbsolute(prog) ? prog : resolve(projectDir, prog);
      if (!executable(p)) {
        let why = 'does not exist';
        try { statSync(p); why = 'is not executable (chmod +x it, or run it as "bash ' + prog + '")'; } catch { /* missing */ }
        out.push(`${h.event} hook "${h.command}" (${h.source}): ${p} ${why}`);
      }
      continue;
    }
    const found = (env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, prog)));
    if (!found) out.push(`${h.event} hook "${h.command}" (${h.source}): program "${prog}" is not on PATH`);
  }
  return out;
}
