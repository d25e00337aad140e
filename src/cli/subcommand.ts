/** Subcommands of the recipe library (SPEC §7). */
export const RECIPE_COMMANDS = new Set(['recipes', 'templates', 'advise', 'prompt']);

/** Global options that take a value (`--settings FILE`), to find a subcommand written after them. */
const VALUED = new Set(['--settings', '--model', '--permission-mode', '--add-dir', '--max-turns', '--verify', '--output-format', '--allowed-tools', '--allowedTools', '--disallowed-tools', '--disallowedTools']);
const SUBCOMMANDS = new Set(['hooks', 'doctor', ...RECIPE_COMMANDS]);

/**
 * `assistant --settings F hooks list` is `assistant hooks list --settings F`: options written before
 * a subcommand are moved after it, where the subcommand reads them.
 */
export function hoistSubcommand(argv: string[]): string[] {
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-') && argv[i] !== '--') i += VALUED.has(argv[i]) ? 2 : 1;
  if (i === 0 || i >= argv.length || !SUBCOMMANDS.has(argv[i])) return argv;
  if (argv.slice(0, i).some((a) => a === '-p' || a === '--print')) return argv; // `-p doctor` is a prompt
  return [argv[i], ...argv.slice(i + 1), ...argv.slice(0, i)];
}

