import { Analysis } from './analysis.ts';
import { loadBashParser } from './load.ts';
import type { ShellAnalysis } from './types.ts';

export type { ShellAnalysis, SimpleCommand } from './types.ts';

/**
 * The shell splitter (SPEC §5, STACK "Permission parsing policy"): every simple command a Bash
 * command runs, with wrappers looked through, and the reasons it cannot be fully analysed.
 * Pure analysis: allow / ask / deny is decided elsewhere (decide.ts).
 */

/** Loads the parser's wasm once (~25 ms); idempotent and safe to call concurrently. */
export async function initShellParser(): Promise<void> {
  await loadBashParser();
}

/**
 * Splits a command. Synchronous; throws if `initShellParser` has not finished, and never
 * otherwise (a failure inside becomes a reason in `unanalysable`).
 */
export function splitCommand(command: string): ShellAnalysis {
  return new Analysis().run(command);
}
