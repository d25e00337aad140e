import { homedir } from 'node:os';
import { Command, CommanderError } from 'commander';
import { loadSettings } from '../config/load.ts';
import { collectHooks, missingPrograms } from '../hooks/config.ts';
import { HookEngine, type Fired } from '../hooks/engine.ts';
import { describeEnd } from '../hooks/outcome.ts';
import { HOOK_EVENTS, TOOL_EVENTS, type HookEvent } from '../hooks/schema.ts';
import { sessionEnd, sessionStart, stopSeam, toolSeams, userPromptSubmit } from '../agent/hook-seams.ts';
import { getTool } from '../tools/registry.ts';
import type { AgentEvent } from '../agent/events.ts';
import { Exit } from './exit.ts';

type Out = (s: string) => void;

function load(cwd: string, settingsFlag: string | undefined) {
  const settings = loadSettings(homedir(), cwd, settingsFlag, cwd);
  const { hooks, warnings } = collectHooks(settings.sources);
  return {
    settings,
    hooks,
    warnings: [...settings.warnings, ...warnings, ...missingPrograms(hooks, cwd, { ...process.env, ...settings.merged.env })],
  };
}

/** `assistant hooks list`: every active hook by event, matcher, command and source file. */
function list(cwd: string, settingsFlag: string | undefined, out: Out): number {
  const { hooks, warnings } = load(cwd, settingsFlag);
  if (hooks.length === 0) out('No hooks are configured.\n');
  for (const event of HOOK_EVENTS) {
    const of = hooks.filter((h) => h.event === event);
    if (of.length === 0) continue;
    out(`${event}\n`);
    for (const h of of) {
      const matcher = TOOL_EVENTS.has(event) ? `  [${h.matcher === undefined || h.matcher === '' ? '*' : h.matcher}]` : '';
      const extra = [h.timeoutMs !== 60_000 ? `timeout ${h.timeoutMs / 1000}s` : '', h.failClosed ? 'failClosed' : '']
        .filter(Boolean)
        .join(', ');
      out(`${matcher}  ${h.command}${extra ? `  (${extra})` : ''}\n      from ${h.source}\n`);
    }
  }
  for (const w of warnings) out(`warning: ${w}\n`);
  return 0;
}

function parseJsonArg(raw: string | undefined, flag: string): Record<string, unknown> {
  if (raw === undefined) return {};
  try {
    const v = JSON.parse(raw) as unknown;
    if (v && typeof v === 'object' && !Array.isArray(v)) return v as Record<string, unknown>;
  } catch {
    /* reported below */
  }
  throw new Exit(2, `${flag} must be a JSON object, e.g. ${flag} '{"command":"ls"}'`);
}

/**
 * `assistant hooks test EVENT --tool NAME --input JSON`: runs the matching hooks on a made-up event
 * and prints each hook's exit code, output and time, and the resulting decision. No tool runs.
 */
async function testEvent(
  cwd: string,
  event: string,
  o: { tool?: string; input?: string; response?: string; settings?: string; mode?: string },
  out: Out,
): Promise<number> {
  if (!(HOOK_EVENTS as readonly string[]).includes(event))
    throw new Exit(2, `Unknown event "${event}". Events: ${HOOK_EVENTS.join(', ')}.`);
  const ev = event as HookEvent;
  const { settings, hooks, warnings } = load(cwd, o.settings);
  for (const w of warnings) out(`warning: ${w}\n`);
  const seen: Fired[] = [];
  const emit = (e: AgentEvent) => {
    if (e.type === 'warning') out(`warning: ${e.message}\n`);
  };
  const engine = new HookEngine(hooks, {
    projectDir: cwd,
    sessionId: 'hooks-test',
    transcriptPath: '',
    env: settings.merged.env ?? {},
    permissionMode: () => o.mode ?? 'default',
    emit,
    observe: (f) => seen.push(f),
  });
  const input = parseJsonArg(o.input, '--input');
  const signal = AbortSignal.timeout(10 * 60_000);
  let decision: string;
  if (TOOL_EVENTS.has(ev)) {
    if (!o.tool) throw new Exit(2, `${ev} needs --tool NAME (e.g. --tool Bash).`);
    const tool = getTool(o.tool);
    const call = { id: 'toolu_hooks_test', name: o.tool, tool: tool!, input, filePath: tool?.filePath?.(input as never, cwd) };
    const seams = toolSeams(engine);
    if (ev === 'PreToolUse') {
      const v = await seams.preToolUse!(call, signal);
      decision =
        v.block !== undefined
          ? `blocked — the model would receive: ${v.block}`
          : v.decision
            ? `${v.decision}${v.reason ? ` (${v.reason})` : ''}${v.updatedInput ? `, input rewritten to ${JSON.stringify(v.updatedInput)}` : ''}`
            : 'no objection — the call goes on to the permission check';
    } else {
      const fb = await seams.postToolUse!(call, { output: '', response: parseJsonArg(o.response, '--response') }, 0, signal);
      decision = fb ? `feedback to the model: ${fb}` : 'no feedback';
    }
  } else if (ev === 'Stop' || ev === 'SubagentStop') {
    const agent =
      ev === 'SubagentStop'
        ? { agent_id: 'hooks-test', agent_type: String(input.agent_type ?? 'general-purpose'), agent_transcript_path: '' }
        : {};
    const more = await stopSeam(engine, emit, ev, agent).onStop(signal, String(input.last_assistant_message ?? ''));
    decision = more ? `does not stop — the model would receive: ${more}` : 'stops';
  } else if (ev === 'UserPromptSubmit') {
    const r = await userPromptSubmit(engine, String(input.prompt ?? 'test prompt'), signal);
    decision =
      r.blocked !== undefined
        ? `prompt blocked and erased: ${r.blocked}`
        : r.context.length
          ? `prompt goes on, with context: ${r.context.join('\n')}`
          : 'prompt goes on';
  } else if (ev === 'SessionStart') {
    const ctx = await sessionStart(engine, (input.source as 'startup') ?? 'startup', signal);
    decision = ctx.length ? `context for the model: ${ctx.join('\n')}` : 'no context';
  } else if (ev === 'SessionEnd') {
    await sessionEnd(engine, (input.reason as 'other') ?? 'other', signal);
    decision = 'done';
  } else {
    await engine.fire(ev, { ...engine.base(ev, ev === 'PreCompact'), ...input }, signal);
    decision = 'done (this event cannot block)';
  }
  if (seen.length === 0) out(`No ${ev} hook matches${o.tool ? ` tool ${o.tool}` : ''}.\n`);
  for (const f of seen) {
    out(`● ${f.run.hook.command}  (${f.run.hook.source})\n`);
    out(
      `  ${describeEnd(f.run)}, ${Math.round(f.run.durationMs)} ms, ${f.outcome.kind === 'block' ? 'blocks' : f.outcome.kind === 'failed' ? 'failed, not blocking' : 'ok'}\n`,
    );
    if (f.run.stdout.trim()) out(`  stdout: ${f.run.stdout.trim().slice(0, 2000)}\n`);
    if (f.run.stderr.trim()) out(`  stderr: ${f.run.stderr.trim().slice(0, 2000)}\n`);
  }
  if (engine.stopReason) out(`The run would stop: ${engine.stopReason}\n`);
  out(`Decision: ${decision}\n`);
  return 0;
}

/** `assistant hooks …`. Returns the exit code. */
export async function hooksCommand(
  argv: string[],
  out: Out = (s) => {
    process.stdout.write(s);
  },
): Promise<number> {
  const cwd = process.cwd();
  let code = 0;
  const program = new Command('assistant hooks')
    .description('List, check and dry-run hooks')
    .exitOverride()
    .configureOutput({ writeOut: out, writeErr: (s) => process.stderr.write(s) });
  program
    .command('list')
    .description('every active hook by event, matcher, command and source file')
    .option('--settings <file>', 'an extra settings file')
    .action((o: { settings?: string }) => {
      code = list(cwd, o.settings, out);
    });
  program
    .command('test')
    .argument('<event>', HOOK_EVENTS.join(' | '))
    .description('run the matching hooks on a made-up event, without running any tool')
    .option('--tool <name>', 'tool name (PreToolUse, PostToolUse)')
    .option('--input <json>', 'tool_input for tool events; the event fields otherwise')
    .option('--response <json>', 'tool_response for PostToolUse')
    .option('--mode <mode>', 'permission_mode to report (default, plan, acceptEdits, bypassPermissions)')
    .option('--settings <file>', 'an extra settings file')
    .action(async (event: string, o: { tool?: string; input?: string; response?: string; settings?: string; mode?: string }) => {
      code = await testEvent(cwd, event, o, out);
    });
  try {
    await program.parseAsync(argv, { from: 'user' });
  } catch (e) {
    if (e instanceof CommanderError) return e.code === 'commander.helpDisplayed' ? 0 : 2;
    throw e;
  }
  if (argv.length === 0) {
    program.outputHelp();
    return 2;
  }
  return code;
}
