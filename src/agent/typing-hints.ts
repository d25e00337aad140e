import { lintPrompt, type Finding } from '../recipes/lint.ts';

export type { Finding };

/**
 * The findings worth showing while the user types (SPEC §7: hints, never blocking): a debugging
 * prompt with nothing to go on, pasted code instead of `@path`, too much asked at once, feedback
 * that says only "wrong". The checks that fire on almost every prompt (no verification asked for,
 * no output format, no negative constraint) and the `hint`-level advice stay in `assistant prompt lint`.
 */
const SHOWN = new Set(['vague-debugging', 'pasted-code', 'too-many-tasks', 'vague-feedback']);

/** The lint's findings that matter for `text`, at most two. Pure. */
export function typingHints(text: string, conventionFile: boolean): Finding[] {
  if (text.length < 12 || text.startsWith('/')) return [];
  return lintPrompt(text, { conventionFile })
    .filter((f) => SHOWN.has(f.id))
    .slice(0, 2);
}
