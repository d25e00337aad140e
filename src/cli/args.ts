import { Command, CommanderError, Option } from 'commander';
import type { SetupOptions } from '../agent/setup.ts';
import { knownToolNames } from '../tools/kinds.ts';

/** The command line: what a session is set up from (agent/setup.ts), and how it runs here. */
export interface CliOptions extends SetupOptions {
  print?: boolean;
  outputFormat: 'text' | 'json' | 'stream-json';
  verbose?: boolean;
  /** The prompt is complete: do not read piped standard input (recipes run/chain). */
  ignoreStdin?: boolean;
}

class UsageError extends Error {}

const collect = (v: string, prev: string[]) => [...prev, v];

function positiveInt(v: string): number {
  const n = Number(v);
  if (!Number.isInteger(n) || n < 1) throw new UsageError(`--max-turns needs a whole number of at least 1, not "${v}".`);
  return n;
}

/** Splits `--allowed-tools "Read,Bash(git log:*)"` on commas outside parentheses (SPEC §11.11). */
export function splitRules(values: string[]): string[] {
  const out: string[] = [];
  for (const v of values) {
    let depth = 0;
    let cur = '';
    for (const ch of v) {
      if (ch === '(') depth++;
      if (ch === ')') depth = Math.max(0, depth - 1);
      if ((ch === ',' || ch === ' ') && depth === 0) {
        if (cur.trim()) out.push(cur.trim());
        cur = '';
        continue;
      }
      cur += ch;
    }
    if (cur.trim()) out.push(cur.trim());
  }
  return out;
}

/**
 * A rules value with a space, no parentheses and a word that is no tool name is, almost surely,
 * the prompt swallowed by the variadic flag: `-p --allowed-tools Read "fix the bug"`.
 */
function looksLikePrompt(value: string): boolean {
  const tools = new Set(knownToolNames().map((t) => t.toLowerCase()));
  return /\s/.test(value.trim()) && !/[()]/.test(value) && value.split(/[\s,]+/).some((w) => w && !tools.has(w.toLowerCase()));
}

function swallowedPrompt(flag: string, value: string, rules: string[]): string {
  const r = rules.map((x) => (/[\s()*]/.test(x) ? `"${x}"` : x)).join(' ') || 'RULE';
  return (
    `${flag} "${value}": this looks like your prompt, read as permission rules because ${flag} takes every word after it. ` +
    `Put the prompt before the flag (assistant -p "${value}" ${flag} ${r}), or end the rules with -- (assistant -p ${flag} ${r} -- "${value}").`
  );
}

export function buildProgram(version: string): Command {
  return new Command()
    .name('assistant')
    .description(
      'A terminal AI coding assistant: reads, searches and changes your project through tools, with hooks and permission rules you control.',
    )
    .usage('[options] [prompt]  |  assistant recipes|templates|advise|rules|prompt lint|hooks|mcp|doctor …')
    .argument('[prompt...]', 'the first prompt (with -p: the prompt to run; read from standard input when omitted)')
    .option('-p, --print', 'headless: run the prompt to completion, print the answer, exit')
    .option('--model <provider:model>', 'the model, e.g. anthropic:claude-sonnet-4-5, openai:gpt-5, ollama:qwen3-coder, replay:FILE')
    .addOption(new Option('--output-format <format>', 'headless output').choices(['text', 'json', 'stream-json']).default('text'))
    .option('--max-turns <n>', 'stop after this many model turns', positiveInt)
    .option('--permission-mode <mode>', 'plan | normal | auto-accept | bypass')
    .option('--allowed-tools <rules...>', 'permission rules to allow, e.g. "Bash(git:*)" Read', collect, [])
    .option('--disallowed-tools <rules...>', 'permission rules to deny', collect, [])
    .addOption(new Option('--allowedTools <rules...>').hideHelp().argParser(collect).default([]))
    .addOption(new Option('--disallowedTools <rules...>').hideHelp().argParser(collect).default([]))
    .addOption(new Option('--dangerously-skip-permissions', 'same as --permission-mode bypass').hideHelp())
    .option('--append-system-prompt <text>', 'text added to the end of the system prompt')
    .option('--settings <file-or-json>', 'an extra settings file (or inline JSON) for this run')
    .option('--add-dir <dir>', 'another directory the tools may use (repeatable)', collect, [])
    .option('--mcp-config <file-or-json>', 'MCP servers for this run: a .mcp.json-shaped file or inline JSON (repeatable)', collect, [])
    .option('--strict-mcp-config', 'use only the MCP servers of --mcp-config')
    .option('--verify <command>', 'verification command to run after changes')
    .option('--sandbox', 'run every Bash command inside the OS sandbox (docs/sandbox.md); exit 2 when it cannot run here')
    .option('--no-sandbox', 'run Bash commands without the sandbox, whatever sandbox.enabled says')
    .addOption(
      new Option('--thinking <level>', 'how much the model reasons first (docs/models.md)').choices(['off', 'low', 'medium', 'high']),
    )
    .option('--verbose', 'show tool calls and more detail')
    .option('-c, --continue', 'continue the newest session of this project')
    .option('-r, --resume [sessionId]', 'resume a session by id')
    .version(version, '-v, --version', 'print the version')
    .helpOption('-h, --help', 'show this help')
    .allowExcessArguments(true)
    .exitOverride()
    .configureOutput({ writeErr: (s) => process.stderr.write(s), writeOut: (s) => process.stdout.write(s) })
    .addHelpText(
      'after',
      `
Commands:
  recipes [show|use|run|chain|save] …        the prompt recipe library (docs/recipes.md)
  templates [use|run] NAME --file PATH       the one-line templates
  advise "task" [--minutes N] [--risk R]     which prompt shape and mode to use
  rules [N]                                  the 18 prompt-writing rules and the pitfalls
  prompt lint "prompt"                       check a prompt against the writing rules (exit 1 on findings)
  hooks list | hooks test EVENT …            the hooks in force; dry-run one
  mcp add|add-json|list|get|remove …         MCP servers (docs/mcp.md)
  doctor                                     check settings, hooks, provider and tools`,
    );
}

/**
 * Claude Code's `--mcp-config` takes several values (`--mcp-config a.json b.json`): the words
 * after the first that look like one (inline JSON, or a `.json` path without spaces) are given
 * their own `--mcp-config`, so a prompt after them stays the prompt.
 */
function mcpConfigValues(argv: string[]): string[] {
  const out: string[] = [];
  const looksLikeConfig = (v: string) => v.trimStart().startsWith('{') || (/\.json$/i.test(v) && !/\s/.test(v) && !v.startsWith('-'));
  for (let i = 0; i < argv.length; i++) {
    out.push(argv[i]);
    if (argv[i] === '--') {
      out.push(...argv.slice(i + 1));
      break;
    }
    if (argv[i] !== '--mcp-config' || i + 1 >= argv.length) continue;
    out.push(argv[++i]);
    while (i + 1 < argv.length && looksLikeConfig(argv[i + 1])) out.push('--mcp-config', argv[++i]);
  }
  return out;
}

type Parsed = { kind: 'run'; prompt: string | undefined; opts: CliOptions } | { kind: 'exit'; code: number };

/** Parses argv. Help and version print and return `exit 0`; bad usage returns exit 2 after a message. */
export function parseArgs(argv: string[], version: string): Parsed {
  const program = buildProgram(version);
  try {
    program.parse(mcpConfigValues(argv), { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) {
      if (e.code === 'commander.helpDisplayed' || e.code === 'commander.version' || e.code === 'commander.help')
        return { kind: 'exit', code: 0 };
      process.stderr.write(`Run "assistant --help" for the options.\n`);
      return { kind: 'exit', code: 2 };
    }
    if (e instanceof UsageError) {
      process.stderr.write(`error: ${e.message}\n`);
      return { kind: 'exit', code: 2 };
    }
    throw e;
  }
  const o = program.opts() as CliOptions & { allowedTools: string[]; disallowedTools: string[]; dangerouslySkipPermissions?: boolean };
  // Claude Code's spellings: --allowedTools, --disallowedTools, --dangerously-skip-permissions.
  if (o.dangerouslySkipPermissions && !o.permissionMode) o.permissionMode = 'bypass';
  const words = [...program.args];
  // `-p -r "fix the bug"`: -r takes an optional id, so commander hands it the prompt. Session ids
  // are UUIDs (a prefix is enough): anything else is the prompt, and -r is left without an id.
  if (typeof o.resume === 'string' && !/^[0-9a-f-]+$/i.test(o.resume)) {
    words.unshift(o.resume);
    o.resume = true;
  }
  if (words.length === 0) {
    for (const [flag, values] of [
      ['--allowed-tools', o.allowedTools],
      ['--disallowed-tools', o.disallowedTools],
    ] as const) {
      const v = values.find(looksLikePrompt);
      if (v !== undefined) {
        process.stderr.write(
          `error: ${swallowedPrompt(
            flag,
            v,
            values.filter((x) => x !== v),
          )}\n`,
        );
        return { kind: 'exit', code: 2 };
      }
    }
  }
  return {
    kind: 'run',
    prompt: words.length ? words.join(' ') : undefined,
    opts: { ...o, allowedTools: splitRules(o.allowedTools), disallowedTools: splitRules(o.disallowedTools) },
  };
}
