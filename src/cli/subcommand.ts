import { buildProgram } from './args.ts';

/** Subcommands of the recipe library (SPEC §7). */
export const RECIPE_COMMANDS = new Set(['recipes', 'templates', 'advise', 'rules', 'prompt']);

/** Global options that take a value (`--settings FILE`), to find a subcommand written after them. */
function valued(): Set<string> {
  return new Set(
    buildProgram('')
      .options.filter((o) => o.required && o.long)
      .map((o) => o.long!),
  );
}
const SUBCOMMANDS = new Set(['hooks', 'doctor', 'mcp', ...RECIPE_COMMANDS]);

/**
 * `assistant --settings F hooks list` is `assistant hooks list --settings F`: options written before
 * a subcommand are moved after it, where the subcommand reads them.
 */
export function hoistSubcommand(argv: string[]): string[] {
  if (!argv[0]?.startsWith('-')) return argv;
  const takesValue = valued();
  let i = 0;
  while (i < argv.length && argv[i].startsWith('-') && argv[i] !== '--') i += takesValue.has(argv[i]) ? 2 : 1;
  if (i === 0 || i >= argv.length || !SUBCOMMANDS.has(argv[i])) return argv;
  if (argv.slice(0, i).some((a) => a === '-p' || a === '--print')) return argv; // `-p doctor` is a prompt
  return [argv[i], ...argv.slice(i + 1), ...argv.slice(0, i)];
}
