import { accessSync, constants, statSync } from 'node:fs';
import { delimiter, isAbsolute, join, resolve } from 'node:path';
import { matcherProblem } from './matcher.ts';
import { DEFAULT_HOOK_TIMEOUT_MS, HOOK_EVENTS, type HookEvent, type HookSpec, type HooksSettings } from './schema.ts';

/** Every hook of every settings file, flattened in file order, with its source (SPEC §4: lists merge). */
export function collectHooks(sources: Array<{ file: string; settings: { hooks?: HooksSettings } }>): {
  hooks: HookSpec[];
  warnings: string[];
} {
  const hooks: HookSpec[] = [];
  const warnings: string[] = [];
  for (const { file, settings } of sources) {
    for (const [event, groups] of Object.entries(settings.hooks ?? {})) {
      if (!(HOOK_EVENTS as readonly string[]).includes(event)) {
        warnings.push(`${file}: unknown hook event "${event}" is ignored (events: ${HOOK_EVENTS.join(', ')})`);
        continue;
      }
      for (const group of groups) {
        // Unknown keys of groups and entries are reported by the settings loader, with file:line:col.
        // The settings loader already refuses an invalid matcher (exit 2); this covers settings
        // that did not come through it.
        const problem = matcherProblem(group.matcher);
        if (problem) warnings.push(`${file}: ${event} ${problem}; those hooks never run`);
        // `failClosed` on the group makes every hook of the group failClosed; an entry cannot
        // switch it off again (nothing may weaken a guard).
        const groupFailClosed = (group as { failClosed?: unknown }).failClosed === true;
        for (const h of group.hooks) {
          hooks.push({
            event: event as HookEvent,
            matcher: group.matcher,
            command: h.command,
            timeoutMs: h.timeout !== undefined ? h.timeout * 1000 : DEFAULT_HOOK_TIMEOUT_MS,
            failClosed: h.failClosed === true || groupFailClosed,
            source: file,
          });
        }
      }
    }
  }
  return { hooks, warnings };
}

const SHELL_WORDS = new Set([
  'echo',
  'printf',
  'cat',
  'true',
  'false',
  'exit',
  'test',
  '[',
  '[[',
  'cd',
  'if',
  'for',
  'while',
  'until',
  'case',
  'select',
  'function',
  'read',
  'export',
  'local',
  'declare',
  'set',
  'unset',
  'exec',
  'eval',
  'command',
  'builtin',
  'source',
  '.',
  ':',
  '{',
  '(',
  '!',
  'time',
  'env',
  'trap',
  'shift',
  'return',
  'wait',
]);

/** `$ASSISTANT_PROJECT_DIR`, `$CLAUDE_PROJECT_DIR` or `${…}` of either, at the start of the text. */
const PROJECT_VAR = /^\$(?:\{(?:ASSISTANT|CLAUDE)_PROJECT_DIR\}|(?:ASSISTANT|CLAUDE)_PROJECT_DIR(?![A-Za-z0-9_]))/;

/**
 * One shell word from `i`: its text with quotes removed and the project-directory variables
 * expanded (other variables are kept as written, `$` included). `undefined` when the word cannot be
 * known without running the shell: a command substitution, a backtick, an unclosed quote.
 */
function shellWord(s: string, i: number, projectDir: string): { text: string; end: number } | undefined {
  let text = '';
  const dollar = (j: number): { text: string; end: number } | undefined => {
    if (s[j + 1] === '(') return undefined; // $( … ) or $(( … ))
    const m = PROJECT_VAR.exec(s.slice(j));
    return m ? { text: projectDir, end: j + m[0].length } : { text: '$', end: j + 1 };
  };
  while (i < s.length) {
    const c = s[i];
    if (/[\s;&|<>()]/.test(c)) break;
    if (c === '`') return undefined;
    if (c === "'") {
      const close = s.indexOf("'", i + 1);
      if (close < 0) return undefined;
      text += s.slice(i + 1, close);
      i = close + 1;
    } else if (c === '"') {
      i++;
      for (;;) {
        if (i >= s.length) return undefined;
        const d = s[i];
        if (d === '"') {
          i++;
          break;
        }
        if (d === '`') return undefined;
        if (d === '\\' && i + 1 < s.length) {
          text += '$`"\\\n'.includes(s[i + 1]) ? s[i + 1] : d + s[i + 1];
          i += 2;
          continue;
        }
        if (d === '$') {
          const v = dollar(i);
          if (!v) return undefined;
          text += v.text;
          i = v.end;
          continue;
        }
        text += d;
        i++;
      }
    } else if (c === '\\') {
      if (i + 1 >= s.length) return undefined;
      text += s[i + 1];
      i += 2;
    } else if (c === '$') {
      const v = dollar(i);
      if (!v) return undefined;
      text += v.text;
      i = v.end;
    } else {
      text += c;
      i++;
    }
  }
  return { text, end: i };
}

/**
 * The program a hook command starts: the first word of its first simple command, after any
 * `NAME=value` assignments, with quotes removed, the project-directory variables expanded (the
 * first word may join quoted and unquoted pieces, as in Claude Code's documented
 * `"$CLAUDE_PROJECT_DIR"/.claude/hooks/check.sh`) and a leading `~/` expanded when `home` is given.
 * `undefined` when it cannot be told reliably without running the shell (a command substitution, a
 * backtick, a leading redirection or subshell, an unclosed quote) or when the first command only
 * assigns variables (`c=$(jq …); …`): the caller then checks nothing rather than warn falsely.
 */
export function programOf(command: string, projectDir: string, home?: string): string | undefined {
  const s = command.trimStart();
  let i = 0;
  const skipBlanks = () => {
    while (i < s.length && (s[i] === ' ' || s[i] === '\t')) i++;
  };
  skipBlanks();
  for (;;) {
    if (i >= s.length || /[;&|\n<>()#]/.test(s[i]) || /^\d+[<>]/.test(s.slice(i))) return undefined;
    const start = i;
    const word = shellWord(s, i, projectDir);
    if (!word) return undefined;
    i = word.end;
    const raw = s.slice(start, i);
    if (/^[A-Za-z_][A-Za-z0-9_]*\+?=/.test(raw)) {
      skipBlanks();
      continue;
    } // VAR=value: the program comes after it
    if (word.text === '') return undefined;
    if (home && /^~(\/|$)/.test(raw)) return home + word.text.slice(1);
    return word.text;
  }
}

function executable(p: string): boolean {
  try {
    accessSync(p, constants.X_OK);
    return statSync(p).isFile();
  } catch {
    return false;
  }
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
    // Not judged: nothing reliable to check, a builtin or keyword, another variable, a glob.
    if (!prog || SHELL_WORDS.has(prog) || /[$*?[]/.test(prog)) continue;
    if (prog.includes('/')) {
      const p = isAbsolute(prog) ? prog : resolve(projectDir, prog);
      if (!executable(p)) {
        let why = 'does not exist';
        try {
          statSync(p);
          why = 'is not executable (chmod +x it, or run it as "bash ' + prog + '")';
        } catch {
          /* missing */
        }
        out.push(`${h.event} hook "${h.command}" (${h.source}): ${p} ${why}`);
      }
      continue;
    }
    const found = (env.PATH ?? '').split(delimiter).some((dir) => dir && executable(join(dir, prog)));
    if (!found) out.push(`${h.event} hook "${h.command}" (${h.source}): program "${prog}" is not on PATH`);
  }
  return out;
}
