import type { HistoryItem } from './state.ts';

/**
 * Test-only: with `ASSISTANT_TEST_CRASH=render` the prompt "crash now" makes the screen throw while
 * it renders; with `=uncaught`, an error is thrown from a timer (an uncaught exception). The e2e
 * tests use it to check that a crash gives the terminal back (raw mode off, cursor shown). Does
 * nothing unless the variable is set.
 */
export function testCrash(history: readonly HistoryItem[]): void {
  const kind = process.env.ASSISTANT_TEST_CRASH;
  if (!kind || !history.some((i) => i.kind === 'user' && i.text === 'crash now')) return;
  if (kind === 'render') throw new Error('test crash while rendering (ASSISTANT_TEST_CRASH)');
  if (kind === 'uncaught')
    setTimeout(() => {
      throw new Error('test crash from a timer (ASSISTANT_TEST_CRASH)');
    }, 0);
}
