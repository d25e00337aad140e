import pkg from '../../package.json' with { type: 'json' };
import { Exit } from './exit.ts';
import { nodeWarning } from './node-support.ts';

/**
 * The entry point: parses argv (help and version answer here, before anything heavy loads),
 * then loads the mode that runs. The only place that decides exit codes and calls process.exit.
 * Errors carrying `exitCode` (Exit, ConfigError, ModelConfigError) end with that code and their message.
 */

function versionOnly(): { kind: 'exit'; code: number } {
  process.stdout.write(`${pkg.version}\n`);
  return { kind: 'exit', code: 0 };
}

async function main(): Promise<void> {
  // A closed output pipe (`assistant -p … | head -1`) ends the run quietly, not with a stack trace.
  process.stdout.on('error', (e: NodeJS.ErrnoException) => {
    if (e.code === 'EPIPE') process.exit(process.exitCode ?? 0);
  });
  process.on('uncaughtException', (e) => {
    process.stderr.write(`assistant: unexpected error: ${e?.message ?? String(e)}\n`);
    process.exit(1);
  });
  process.on('unhandledRejection', (e) => {
    process.stderr.write(`assistant: unexpected error: ${(e as Error)?.message ?? String(e)}\n`);
    process.exit(1);
  });
  let code: number;
  try {
    const raw = process.argv.slice(2);
    const old = raw[0] === 'doctor' ? undefined : nodeWarning();
    if (old) process.stderr.write(`warning: ${old}\n`);
    // `--version` alone answers before the command-line parser and the tool registry load.
    const version = raw.length === 1 && (raw[0] === '--version' || raw[0] === '-v');
    const { hoistSubcommand, RECIPE_COMMANDS } = version
      ? { hoistSubcommand: (a: string[]) => a, RECIPE_COMMANDS: new Set<string>() }
      : await import('./subcommand.ts');
    const argv = hoistSubcommand(raw);
    const parsed = version
      ? versionOnly()
      : argv[0] === 'hooks' || argv[0] === 'doctor' || argv[0] === 'mcp' || RECIPE_COMMANDS.has(argv[0])
        ? undefined
        : (await import('./args.ts')).parseArgs(argv, pkg.version);
    if (parsed === undefined && RECIPE_COMMANDS.has(argv[0])) {
      code = await (await import('./recipes-cmd.ts')).recipesCommand(argv);
    } else if (parsed === undefined && argv[0] === 'mcp') {
      code = await (await import('./mcp-cmd.ts')).mcpCommand(argv.slice(1));
    } else if (parsed === undefined) {
      const sub = argv[0] === 'hooks' ? (await import('./hooks-cmd.ts')).hooksCommand : (await import('./doctor.ts')).doctorCommand;
      code = await sub(argv.slice(1));
    } else if (parsed.kind === 'exit') code = parsed.code;
    else if (!parsed.opts.print) {
      const { runInteractive } = await import('./run-interactive.ts');
      code = await runInteractive(parsed.opts, parsed.prompt, pkg.version);
    } else {
      const { runHeadless } = await import('./run-headless.ts');
      code = await runHeadless(parsed.opts, parsed.prompt, pkg.version);
    }
  } catch (e) {
    const exitCode = (e as { exitCode?: unknown })?.exitCode;
    if (typeof exitCode === 'number') {
      const msg = (e as Error).message;
      if (msg) process.stderr.write(e instanceof Exit ? `${msg}\n` : `error: ${msg}\n`);
      code = exitCode;
    } else {
      process.stderr.write(`assistant crashed: ${(e as Error)?.stack ?? String(e)}\n`);
      code = 1;
    }
  }
  process.exitCode = code;
  // Leave once stdout and stderr are flushed (a pipe takes 64 KB at a time: `recipes --json | jq`),
  // even if a stray handle (a hung socket) is still open; a reader that never drains gets 5 s.
  let pending = 2;
  const leave = () => {
    if (--pending === 0) process.exit(code);
  };
  process.stdout.write('', leave);
  process.stderr.write('', leave);
  setTimeout(() => process.exit(code), 5000).unref();
}

void main();
