import { useEffect, useState } from 'react';
import { typingHints, type Finding } from '../../agent/typing-hints.ts';

/** How long typing must pause before the prompt lint's hints are shown or changed. */
export const HINT_PAUSE_MS = 1200;

/**
 * The hints under the input: computed once typing pauses, kept (not hidden) while typing goes on,
 * so the layout under the box does not jump with every key; gone at once when the input is
 * emptied (a prompt sent). `enabled: false` (settings `ui.promptHints`) shows none.
 */
export function usePromptHints(text: string, o: { enabled: boolean; conventionFile: boolean; pauseMs?: number }): Finding[] {
  const [hints, setHints] = useState<Finding[]>([]);
  useEffect(() => {
    if (!o.enabled || !text.trim()) {
      setHints((h) => (h.length ? [] : h));
      return;
    }
    const t = setTimeout(() => setHints(typingHints(text, o.conventionFile)), o.pauseMs ?? HINT_PAUSE_MS);
    return () => clearTimeout(t);
  }, [text, o.enabled]);
  return hints;
}
