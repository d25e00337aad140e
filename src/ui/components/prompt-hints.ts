import { useEffect, useState } from 'react';
import { lintPrompt, type Finding } from '../../recipes/lint.ts';

/** How long typing must pause before the prompt lint's hints are shown or changed. */
export const HINT_PAUSE_MS = 1200;

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
  return lintPrompt(text, { conventionFile }).filter((f) => SHOWN.has(f.id)).slice(0, 2);
}

/**
 * The hints under the input: computed once typing pauses, kept (not hidden) while typing goes on,
 * so the layout under the box does not jump with every key; gone at once when the input is
 * emptied (a prompt sent). `enabled: false` (settings `ui.promptHints`) shows none.
 */
export function usePromptHints(text: string, o: { enabled: boolean; conventionFile: boolean; pauseMs?: number }): Finding[] {
  const [hints, setHints] = useState<Finding[]>([]);
  useEffect(() => {
    if (!o.enabled || !text.trim()) { setHints((h) => (h.length ? [] : h)); return; }
    const t = setTimeout(() => setHints(typingHints(text, o.conventionFile)), o.pauseMs ?? HINT_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text, o.enabled]);
  return hints;
}
