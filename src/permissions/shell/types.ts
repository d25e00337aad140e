/** What the shell splitter reports about one Bash command (SPEC §5, §11.6–8). Pure data. */

export interface Redirect {
  /** The operator as written, with its file descriptor: `>`, `>>`, `2>`, `&>`, `>|`, `<`, `<>`, `2>&`, `>&-`. */
  op: string;
  /** The file (unquoted), or the descriptor for a duplication (`1` in `2>&1`); '' when closing. */
  target: string;
  /** The redirection creates or changes the file `target`. */
  writes: boolean;
  /** The redirection reads the file `target`. Duplications and closings neither read nor write. */
  reads: boolean;
}

export interface SimpleCommand {
  /**
   * The program's base name, as a rule names it (SPEC §11.6): `/bin/rm`, `\rm`, `'rm'`, `"rm"`,
   * `command rm` are all `rm`. '' for a command made only of redirections (`> file`).
   */
  program: string;
  /** The program as written when it had a directory part (`./git`, `/usr/bin/rm`); else undefined. */
  programPath?: string;
  /**
   * The argument words, unquoted (`"a b"` → `a b`). A word with an expansion keeps its source text
   * (`"$HOME/x"`) and sets `hasExpansion`.
   */
  args: string[];
  /** `program` and `args` joined by single spaces: what prefix rules (`npm run test:*`) match. */
  text: string;
  /** The command's words as written (quotes and escapes kept), for messages; what rules match is `text`. */
  shown?: string;
  /**
   * The wrappers looked through to reach the program, outermost first (wrapper-table.ts: `timeout`,
   * `sudo`, `env`, `xargs`, `flock`, `su`, `watch`, `uv run`…, `bash -c` for any shell, `find -exec`
   * and the like), and leading assignments as written (`FOO=bar`).
   */
  wrappers: string[];
  /** File redirections that apply to this command, its own and those of enclosing `{ }`, `( )`, loops. */
  redirects: Redirect[];
  /**
   * Some argument is not known before the command runs: `$var`, `$(…)`, `` `…` ``, `$((…))`,
   * `<(…)`, or arguments that `xargs` / `find -exec {}` supply at run time.
   */
  hasExpansion: boolean;
  /** Some argument is an unquoted glob or brace pattern (`*.ts`, `.e?v`, `{a,b}`) the shell expands. */
  hasGlob: boolean;
  /** Per argument (same order as `args`): only known at run time, a pattern the shell expands. */
  argKinds?: Array<{ dynamic: boolean; glob: boolean }>;
  /**
   * The program runs code of its own given in the command (`python -c`, `perl -e`, `node -e`,
   * `vim -c`, a script read from its input): why, and the code as written (shell/scripts.ts).
   */
  code?: { why: string; text: string };
  /** It edits its file operands in place (`sed -i`, `perl -pi`, `gawk -i inplace`). */
  inPlace?: boolean;
}

export interface ShellAnalysis {
  /**
   * Every simple command, in source order of discovery: across `&&` `||` `;` `|` `&` and newlines,
   * in `( )`, `{ }`, `$( )`, backticks, `<( )`, `>( )`, `if`/`for`/`while`/`case` bodies, function
   * bodies, unquoted heredocs, and literal `sh -c '…'` scripts (recursively).
   */
  commands: SimpleCommand[];
  /** Reasons to ask instead of deciding, readable by a person; empty when the command was fully analysed. */
  unanalysable: string[];
  /** The command holds a loop or a function definition, so its parts may run repeatedly or out of order. */
  repeats?: boolean;
  /**
   * `for f in WORDS`: the literal words (globs expanded later) each loop variable takes, for
   * variables set nowhere else in the command. `"$f"` then names one of those words.
   */
  loops?: Record<string, Array<{ value: string; glob: boolean }>>;
  /**
   * The reasons of `unanalysable` that only say a named file runs as shell code (`source
   * .venv/bin/activate`): nothing is hidden in the command itself, as with `bash FILE`.
   */
  filesRun?: string[];
}
