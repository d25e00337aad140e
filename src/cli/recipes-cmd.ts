import { existsSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { createInterface } from 'node:readline/promises';
import { Command, CommanderError, Option } from 'commander';
import pkg from '../../package.json' with { type: 'json' };
import { FALLBACK_MEMORY_FILES, MEMORY_FILE } from '../context/memory.ts';
import { advise, adviceText, type Risk } from '../recipes/advise.ts';
import { failing, findingsText, LINT_RULES, lintPrompt } from '../recipes/lint.ts';
import { PITFALLS, ruleByNumber, rulesText, WRITING_RULES, type WritingRule } from '../recipes/rules.ts';
import { findRecipe, findTemplate, library } from '../recipes/load.ts';
import { libraryText, recipeJson, recipeText, templateJson, templatesText, templateText } from '../recipes/render.ts';
import { saveRecipe } from '../recipes/save.ts';
import { MODE_NAMES, type Recipe, type Template } from '../recipes/schema.ts';
import { fillSlots, parseSet, type Fill } from '../recipes/slots.ts';
import { splitRules, type CliOptions } from './args.ts';
import { Exit } from './exit.ts';

type Out = (s: string) => void;
const out: Out = (s) => {
  process.stdout.write(s);
};
const err: Out = (s) => {
  process.stderr.write(s);
};
const collect = (v: string, prev: string[]) => [...prev, v];

interface FillFlags {
  set: string[];
  file: string[];
}
interface RunFlags extends FillFlags {
  yes?: boolean;
  model?: string;
  outputFormat: 'text' | 'json' | 'stream-json';
  maxTurns?: string;
  settings?: string;
  addDir: string[];
  verify?: string;
  verbose?: boolean;
  permissionMode?: string;
  allowedTools: string[];
  disallowedTools: string[];
  executeMode?: string;
}

function toFill(f: FillFlags): Fill {
  const set: Record<string, string> = {};
  for (const s of f.set) {
    const kv = parseSet(s);
    if (!kv) throw new Exit(2, `--set "${s}" is not name=value, e.g. --set "module name=auth"`);
    set[kv[0]] = kv[1];
  }
  return { set, files: f.file };
}

function recipe(ref: string): Recipe {
  const r = findRecipe(ref);
  if (!r)
    throw new Exit(
      2,
      `There is no recipe "${ref}": recipes are numbered 1 to ${library().recipes.length}. List them with: assistant recipes`,
    );
  return r;
}

function template(ref: string): Template {
  const t = findTemplate(ref);
  if (!t)
    throw new Exit(
      2,
      `There is no template "${ref}". Templates: ${library()
        .templates.map((x) => x.name)
        .join(', ')}`,
    );
  return t;
}

function fill(body: string, f: Fill, what: string, defaults?: Record<string, string>): string {
  const r = fillSlots(body, f, what, defaults);
  if (!r.ok) throw new Exit(2, `error: ${r.error}`);
  for (const file of f.files) {
    // `src/a.ts`, `src/a.ts:40-80`, `src/a.ts:parse` or `#parse`: the file part must exist (SPEC §6: a
    // missing @path is reported before anything is sent; here, before a prompt is printed or run).
    const path = file.replace(/^@/, '').replace(/(?::\d+(?:-\d+)?|[:#][A-Za-z_$][\w$.]*)$/, '');
    if (!existsSync(resolve(path))) throw new Exit(2, `--file ${file}: no such file or directory (${resolve(path)}).`);
  }
  return r.text;
}

function withRunOptions(c: Command): Command {
  return c
    .option('--set <name=value>', 'fill a slot (repeatable)', collect, [])
    .option('--file <path>', 'fill @<path> (repeatable)', collect, [])
    .option('-y, --yes', 'go on past a Plan Mode step without asking (run: the plan is executed)')
    .option(
      '--execute-mode <mode>',
      'the mode that executes a confirmed plan (default: normal on a terminal, which asks; auto-accept otherwise)',
    )
    .option('--model <provider:model>', 'the model')
    .addOption(new Option('--output-format <format>', 'output of each run').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--max-turns <n>', 'stop each run after this many model turns')
    .option('--permission-mode <mode>', "instead of the recipe's own mode")
    .option('--allowed-tools <rules...>', 'permission rules to allow', collect, [])
    .option('--disallowed-tools <rules...>', 'permission rules to deny', collect, [])
    .option('--settings <file-or-json>', 'an extra settings file')
    .option('--add-dir <dir>', 'another directory the tools may use', collect, [])
    .option('--verify <command>', 'verification command after changes')
    .option('--verbose', 'show tool calls');
}

function cliOptions(f: RunFlags, mode: string, extra: Partial<CliOptions> = {}): CliOptions {
  const maxTurns = f.maxTurns === undefined ? undefined : Number(f.maxTurns);
  if (maxTurns !== undefined && (!Number.isInteger(maxTurns) || maxTurns < 1))
    throw new Exit(2, `--max-turns needs a whole number of at least 1, not "${f.maxTurns}".`);
  return {
    print: true,
    ignoreStdin: true,
    model: f.model,
    outputFormat: f.outputFormat,
    maxTurns,
    permissionMode: mode,
    settings: f.settings,
    addDir: f.addDir,
    verbose: f.verbose,
    allowedTools: splitRules(f.allowedTools),
    disallowedTools: splitRules(f.disallowedTools),
    verify: f.verify,
    ...extra,
  };
}

/** Runs one prompt headless; in a terminal, permission questions are asked there (y/N). */
async function headless(opts: CliOptions, prompt: string): Promise<number> {
  const { runHeadless } = await import('./run-headless.ts');
  const tty = process.stdin.isTTY && process.stderr.isTTY;
  return runHeadless(opts, prompt, pkg.version, tty ? (await import('./tty-ask.ts')).ttyAsk : undefined);
}

/** Asks y/N on the terminal; without one, the answer is no. */
async function confirm(question: string): Promise<boolean> {
  if (!process.stdin.isTTY || !process.stderr.isTTY) return false;
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    return /^y(es)?$/i.test((await rl.question(`${question} [y/N] `)).trim());
  } finally {
    rl.close();
  }
}

const EXECUTE_PLAN =
  'The plan in plan.md is approved. Execute it now, step by step, following its constraints; verify each step as the plan says, and report what changed.';

/**
 * Runs one filled recipe headless in its mode (or --permission-mode). A Plan Mode recipe that
 * writes plan.md stops there and asks before executing: --yes, or y on a terminal, continues the
 * same session in --execute-mode; otherwise it says how to go on. Returns the exit code.
 */
async function runRecipe(r: Recipe, prompt: string, f: RunFlags, next?: Recipe): Promise<{ code: number; stoppedAtPlan: boolean }> {
  const mode = f.permissionMode ?? r.mode;
  err(`── recipe ${r.number}: ${r.title} (${MODE_NAMES[mode as keyof typeof MODE_NAMES] ?? mode})\n`);
  const code = await headless(cliOptions(f, mode), prompt);
  if (code !== 0 || mode !== 'plan' || !r.writes.includes('plan.md')) return { code, stoppedAtPlan: false };
  // In a chain the next recipe is what acts on the plan, and naming it was the user's decision:
  // a terminal is asked; a script goes on.
  if (next)
    return {
      code,
      stoppedAtPlan: !(f.yes || !process.stdin.isTTY || (await confirm(`The plan is in plan.md. Go on with recipe ${next.number}?`))),
    };
  const go = f.yes || (await confirm('The plan is in plan.md. Execute it now?'));
  if (!go) {
    // A -p run cannot ask: in Normal mode it would refuse every edit, so the hint names a mode that edits.
    err(
      `Plan Mode: nothing changed but plan.md. Review it, then execute it in the same session:\n  assistant -c -p "Execute the plan in plan.md" --permission-mode ${f.executeMode ?? 'auto-accept'}\n`,
    );
    return { code, stoppedAtPlan: true };
  }
  // On a terminal the run asks before each change (normal); with nobody to ask, edits are accepted.
  const executeMode = f.executeMode ?? (process.stdin.isTTY ? 'normal' : 'auto-accept');
  err(`── executing plan.md (${MODE_NAMES[executeMode as keyof typeof MODE_NAMES] ?? executeMode})\n`);
  return { code: await headless(cliOptions(f, executeMode, { continue: true }), EXECUTE_PLAN), stoppedAtPlan: false };
}

function program(): { cmd: Command; result: Promise<number>[] } {
  const result: Promise<number>[] = [];
  const done = (p: Promise<number> | number) => {
    result.push(Promise.resolve(p));
  };
  // Positional options: `recipes show 4 --json` is the subcommand's --json, not the library's.
  const cmd = new Command()
    .name('assistant')
    .enablePositionalOptions()
    .exitOverride()
    .configureOutput({ writeErr: err, writeOut: out })
    .helpOption('-h, --help', 'show this help');

  const recipes = cmd
    .command('recipes')
    .enablePositionalOptions()
    .description('the recipe library, by category')
    .option('--json', 'JSON for scripts')
    .action((o: { json?: boolean }) =>
      done((o.json ? out(`${JSON.stringify(library().recipes.map(recipeJson), null, 2)}\n`) : out(libraryText(library().recipes)), 0)),
    );
  recipes
    .command('show <n>')
    .description('one recipe, with its slots')
    .option('--json', 'JSON for scripts')
    .action((n: string, o: { json?: boolean }) => {
      const r = recipe(n);
      out(o.json ? `${JSON.stringify(recipeJson(r), null, 2)}\n` : recipeText(r));
      done(0);
    });
  recipes
    .command('use <n>')
    .description('fill the slots and print the prompt')
    .option('--set <name=value>', 'fill a slot (repeatable)', collect, [])
    .option('--file <path>', 'fill @<path> (repeatable)', collect, [])
    .option('--json', 'JSON for scripts')
    .action((n: string, o: FillFlags & { json?: boolean }) => {
      const r = recipe(n);
      const prompt = fill(r.body, toFill(o), `recipe ${r.number}`, r.defaults);
      out(o.json ? `${JSON.stringify({ number: r.number, title: r.title, mode: r.mode, prompt }, null, 2)}\n` : `${prompt}\n`);
      done(0);
    });
  withRunOptions(recipes.command('run <n>').description('fill the slots and run it, in its mode')).action((n: string, o: RunFlags) => {
    const r = recipe(n);
    const prompt = fill(r.body, toFill(o), `recipe ${r.number}`, r.defaults);
    done(runRecipe(r, prompt, o).then((x) => x.code));
  });
  withRunOptions(recipes.command('chain <n...>').description('run several in order, each passing its result on through its file')).action(
    (ns: string[], o: RunFlags) =>
      done(
        chain(
          ns
            .flatMap((n) => n.split(/[\s,]+/))
            .filter(Boolean)
            .map(recipe),
          o,
        ),
      ),
  );
  recipes
    .command('save <n>')
    .description('write it as a custom command: .assistant/commands/NAME.md → /NAME')
    .requiredOption('--as <name>', 'the command name')
    .option('--set <name=value>', 'fill a slot now (repeatable)', collect, [])
    .option('--file <path>', 'fill @<path> now', collect, [])
    .option('--force', 'replace an existing command file')
    .action((n: string, o: FillFlags & { as: string; force?: boolean }) => {
      const r = recipe(n);
      const s = saveRecipe(r, o.as, toFill(o), { root: process.cwd(), force: o.force });
      if (!s.ok) throw new Exit(2, s.error);
      out(
        `Wrote ${s.file}\nRun it in a session: ${s.command}${s.argumentHint ? ` ${s.argumentHint}` : ''}  (or /project:${o.as}; headless: assistant -p "${s.command} …")\n`,
      );
      if (r.mode !== 'normal')
        out(`Recipe ${r.number} runs best in ${MODE_NAMES[r.mode]}: /mode ${r.mode} first, or --permission-mode ${r.mode}.\n`);
      done(0);
    });

  const templates = cmd
    .command('templates')
    .enablePositionalOptions()
    .description('the ten one-line templates')
    .option('--json', 'JSON for scripts')
    .action((o: { json?: boolean }) =>
      done(
        (o.json ? out(`${JSON.stringify(library().templates.map(templateJson), null, 2)}\n`) : out(templatesText(library().templates)), 0),
      ),
    );
  templates
    .command('show <name>')
    .description('one template, with its slots')
    .option('--json', 'JSON for scripts')
    .action((n: string, o: { json?: boolean }) => {
      const t = template(n);
      out(o.json ? `${JSON.stringify(templateJson(t), null, 2)}\n` : templateText(t));
      done(0);
    });
  templates
    .command('use <name>')
    .description('fill a template and print it')
    .option('--set <name=value>', 'fill a slot', collect, [])
    .option('--file <path>', 'the file, directory or function', collect, [])
    .option('--json', 'JSON for scripts')
    .action((n: string, o: FillFlags & { json?: boolean }) => {
      const t = template(n);
      const prompt = fill(t.body, toFill(o), `template ${t.name}`);
      out(o.json ? `${JSON.stringify({ number: t.number, name: t.name, mode: t.mode, prompt }, null, 2)}\n` : `${prompt}\n`);
      done(0);
    });
  withRunOptions(templates.command('run <name>').description('fill a template and run it')).action((n: string, o: RunFlags) => {
    const t = template(n);
    const prompt = fill(t.body, toFill(o), `template ${t.name}`);
    const mode = o.permissionMode ?? t.mode;
    err(`── template ${t.name}: ${t.title} (${MODE_NAMES[mode as keyof typeof MODE_NAMES] ?? mode})\n`);
    done(headless(cliOptions(o, mode), prompt));
  });

  cmd
    .command('advise <task...>')
    .description("which prompt shape and mode to use, by the source's two tables")
    .option('--minutes <n>', 'how long the task would take you')
    .addOption(new Option('--risk <risk>', 'low, medium or high').choices(['low', 'medium', 'high']))
    .option('--json', 'JSON for scripts')
    .action((words: string[], o: { minutes?: string; risk?: Risk; json?: boolean }) => {
      const minutes = o.minutes === undefined ? undefined : Number(o.minutes);
      if (minutes !== undefined && !(minutes >= 0)) throw new Exit(2, `--minutes needs a number, not "${o.minutes}"`);
      const a = advise(words.join(' '), { minutes, risk: o.risk });
      out(o.json ? `${JSON.stringify(a, null, 2)}\n` : adviceText(a));
      done(0);
    });

  cmd
    .command('rules [n]')
    .description('the 18 prompt-writing rules, which prompt lint checks, and which need judgement')
    .option('--json', 'JSON for scripts')
    .action((n: string | undefined, o: { json?: boolean }) => {
      const one = n === undefined ? undefined : ruleByNumber(Number(n));
      if (n !== undefined && !one)
        throw new Exit(2, `There is no rule "${n}": the rules are numbered 1 to ${WRITING_RULES.length}. List them with: assistant rules`);
      const checks = (r: WritingRule) => ({
        ...r,
        checks: r.checks.map((id) => LINT_RULES.find((c) => c.id === id)!).map(({ id, level }) => ({ id, level })),
      });
      const json = one ? checks(one) : { rules: WRITING_RULES.map(checks), pitfalls: PITFALLS };
      out(o.json ? `${JSON.stringify(json, null, 2)}\n` : rulesText(one));
      done(0);
    });

  cmd
    .command('prompt')
    .description('prompt tools')
    .command('lint [prompt...]')
    .description('check a prompt against the writing rules and pitfalls (exit 1 on findings)')
    .option('--json', 'JSON for scripts')
    .action((words: string[], o: { json?: boolean }) =>
      done(
        (async () => {
          const text = words.length ? words.join(' ') : await readAll();
          if (!text.trim())
            throw new Exit(2, 'No prompt to check. Usage: assistant prompt lint "your prompt"   (or pipe it on standard input)');
          // A convention file here (or its fallbacks) states the project's constraints for every prompt.
          const findings = lintPrompt(text, {
            conventionFile: [MEMORY_FILE, ...FALLBACK_MEMORY_FILES].some((f) => existsSync(join(process.cwd(), f))),
          });
          out(o.json ? `${JSON.stringify({ findings }, null, 2)}\n` : findingsText(findings));
          return failing(findings).length ? 1 : 0;
        })(),
      ),
    );
  return { cmd, result };
}

async function readAll(): Promise<string> {
  if (process.stdin.isTTY) return '';
  const chunks: Buffer[] = [];
  for await (const c of process.stdin) chunks.push(c as Buffer);
  return Buffer.concat(chunks).toString('utf8');
}

/**
 * Runs recipes in order, each a fresh session in its own mode, passing results on through their
 * files (plan.md, review.md, …). Every slot of every step is checked before anything runs.
 * Stops at the first failure, and after a Plan Mode step unless it is confirmed.
 */
async function chain(list: Recipe[], f: RunFlags): Promise<number> {
  const values = toFill(f);
  const prompts: string[] = [];
  const problems: string[] = [];
  const used = new Set<string>();
  for (const r of list) {
    const own = {
      set: Object.fromEntries(Object.entries(values.set).filter(([k]) => r.slots.includes(k))),
      files: r.fileSlot ? values.files : [],
    };
    for (const k of Object.keys(own.set)) used.add(k);
    const x = fillSlots(r.body, own, `recipe ${r.number}`, r.defaults);
    if (x.ok) prompts.push(x.text);
    else problems.push(x.error);
  }
  const unused = Object.keys(values.set).filter((k) => !used.has(k));
  if (unused.length) problems.push(`no recipe of the chain has ${unused.map((s) => `[${s}]`).join(', ')}`);
  if (problems.length) throw new Exit(2, `Nothing was run:\n  ${problems.join('\n  ')}`);
  for (let i = 0; i < list.length; i++) {
    const { code, stoppedAtPlan } = await runRecipe(list[i], prompts[i], f, list[i + 1]);
    if (code !== 0) {
      err(`The chain stopped at recipe ${list[i].number} (exit ${code}).\n`);
      return code;
    }
    if (stoppedAtPlan && i < list.length - 1) {
      err(`Plan Mode: nothing changed but plan.md.\n`);
      err(
        `The chain stopped after recipe ${list[i].number} for your review. Go on with: assistant recipes chain ${list
          .slice(i + 1)
          .map((r) => r.number)
          .join(' ')} --set …  (or rerun with --yes)\n`,
      );
      return 0;
    }
  }
  return 0;
}

/** `assistant recipes|templates|advise|rules|prompt …`. Returns the exit code; bad usage throws Exit(2). */
export async function recipesCommand(argv: string[]): Promise<number> {
  if (argv.length === 1 && argv[0] === 'prompt')
    throw new Exit(2, 'Usage: assistant prompt lint "your prompt"   (or pipe the prompt on standard input)');
  const { cmd, result } = program();
  try {
    await cmd.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.help' || e.code === 'commander.version') return 0;
      return 2;
    }
    throw e;
  }
  const codes = await Promise.all(result);
  return codes.at(-1) ?? 0;
}
