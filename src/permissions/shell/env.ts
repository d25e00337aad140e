import type { Redirect } from './types.ts';

/** What surrounds the part of a command being walked (analysis.ts). */
export interface Env {
  /** Wrappers looked through so far (`sudo`, then `bash -c` for the commands of its script). */
  wrappers: string[];
  /** The wrappers of the script being walked: substitutions in it run under them too. */
  scriptWrappers: string[];
  /** Redirections of enclosing statements (`{ …; } > f`). */
  redirects: Redirect[];
  /** Standard input comes from a pipe, a heredoc, a herestring or a file. */
  stdinFed: boolean;
  /** Nesting of `sh -c` scripts. */
  depth: number;
  /** Prefix for reasons found inside a nested script. */
  where: string;
}

export const ROOT: Env = { wrappers: [], scriptWrappers: [], redirects: [], stdinFed: false, depth: 0, where: '' };

/** Commands substituted into a word run in the script's shell, not under the command's wrappers or redirections. */
export const fresh = (env: Env): Env => ({
  ...ROOT,
  wrappers: env.scriptWrappers,
  scriptWrappers: env.scriptWrappers,
  depth: env.depth,
  where: env.where,
});
