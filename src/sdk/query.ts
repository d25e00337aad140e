import { randomUUID } from 'node:crypto';
import { existsSync, readFileSync, statSync } from 'node:fs';
import { homedir } from 'node:os';
import { resolve } from 'node:path';
import pkg from '../../package.json' with { type: 'json' };
import type { AgentEvent, AskFn, RunOutcome } from '../agent/events.ts';
import type { Session } from '../agent/session.ts';
import { createSession, loadSetup, type Setup, type SetupOptions } from '../agent/setup.ts';
import { sessionDispatchContext } from '../agent/dispatch-context.ts';
import { dispatchHeadless } from '../agent/headless-builtins.ts';
import { mcpSettled } from '../agent/mcp-ready.ts';
import { CLAUDE_MODE_NAMES } from '../agent/modes.ts';
import { commandModel, failedOutcome, runCompact, runPrompt } from '../agent/run-prompt.ts';
import { initJson, resultJson, streamJsonEvent } from '../headless/format.ts';
import { sdkRefuseAsk } from '../headless/run.ts';
import { regexError } from '../hooks/matcher.ts';
import type { HookEvent, HookFunction, HookSpec } from '../hooks/schema.ts';
import { emptyUsage, type ModelHandle } from '../providers/types.ts';
import { Channel } from './channel.ts';
import { AssistantError } from './errors.ts';
import { checkOptions, portOptions } from './options.ts';
import type { Options, Query, SDKMessage, SDKUserMessage } from './public.ts';

/**
 * Runs the assistant in this process (SPEC §15): the same set-up, session and loop as `-p`, with
 * the same messages as `--output-format stream-json` (headless/format.ts builds both). Nothing is
 * written to the terminal, the process is never exited, and nothing of the process is changed
 * (its directory, its environment): two queries at once share nothing.
 */
export function query(args: { prompt: string | AsyncIterable<SDKUserMessage>; options?: Options }): Query {
  const prompt = args?.prompt;
  if (typeof prompt !== 'string' && !(prompt && typeof (prompt as AsyncIterable<unknown>)[Symbol.asyncIterator] === 'function')) {
    throw new AssistantError('options', 'query(): prompt must be a string or an async iterable of user messages.', 2, [
      { path: 'prompt', message: 'must be a string or an async iterable of user messages' },
    ]);
  }
  if (typeof prompt === 'string' && !prompt.trim())
    throw new AssistantError('options', 'query(): the prompt is empty.', 2, [{ path: 'prompt', message: 'is empty' }]);
  const ported = portOptions(args.options);
  const options = checkOptions(ported.options);
  const hooks = hookSpecs(options);
  const controller = new AbortController();
  for (const s of [options.signal, options.abortController?.signal]) {
    if (!s) continue;
    if (s.aborted) controller.abort(s.reason);
    else s.addEventListener('abort', () => controller.abort(s.reason), { once: true, signal: controller.signal });
  }
  const channel = new Channel<SDKMessage>();
  const state: { session?: Session; finished: boolean } = { finished: false };
  void run(prompt, options, hooks, controller.signal, channel, state, ported.notes)
    .then(
      () => channel.close(),
      (e) => channel.fail(wrapError(e)),
    )
    .finally(() => {
      state.finished = true;
    });

  async function* messages(): AsyncGenerator<SDKMessage, void> {
    try {
      for (;;) {
        const item = await channel.next();
        if (item.done) return;
        yield item.value;
      }
    } finally {
      // The caller stopped reading (break, return): the run stops too, rather than go on unseen.
      if (!state.finished) controller.abort(new Error('the caller stopped reading'));
    }
  }
  const gen = messages();
  return Object.assign(gen, {
    async interrupt() {
      controller.abort(new Error('interrupted'));
    },
    get sessionId() {
      return state.session?.id;
    },
  }) as Query;
}

/** A configuration error of set-up (its `exitCode`: the CLI's) becomes the SDK's typed error. */
function wrapError(e: unknown): unknown {
  if (e instanceof AssistantError) return e;
  const code = (e as { exitCode?: unknown })?.exitCode;
  if (typeof code === 'number') return new AssistantError(code === 2 ? 'config' : 'setup', (e as Error).message, code);
  return e;
}

/** The JavaScript hooks as the hook engine's specs, labelled `(sdk) Event[i].hooks[j] name`. */
function hookSpecs(options: Options): HookSpec[] {
  const specs: HookSpec[] = [];
  for (const [event, groups] of Object.entries(options.hooks ?? {})) {
    groups?.forEach((g, i) => {
      const why = g.matcher ? regexError(g.matcher) : undefined;
      if (why !== undefined)
        throw new AssistantError('options', `hooks.${event}.${i}.matcher: "${g.matcher}" is not a valid regular expression (${why}).`, 2, [
          { path: `hooks.${event}.${i}.matcher`, message: why },
        ]);
      g.hooks.forEach((fn, j) =>
        specs.push({
          event: event as HookEvent,
          matcher: g.matcher,
          command: `(sdk) ${event}[${i}].hooks[${j}]${fn.name ? ` ${fn.name}` : ''}`,
          timeoutMs: (g.timeout ?? 60) * 1000,
          failClosed: g.failClosed === true,
          source: 'query() options',
          fn: fn as unknown as HookFunction,
        }),
      );
    });
  }
  return specs;
}

/** `settings` and `mcpServers` as the one `--settings` value set-up reads (a file, or inline JSON). */
function settingsFlag(options: Options, cwd: string): string | undefined {
  const { settings, mcpServers } = options;
  if (settings === undefined && mcpServers === undefined) return undefined;
  if (typeof settings === 'string' && !settings.trim().startsWith('{') && mcpServers === undefined) return settings;
  let base: Record<string, unknown> = {};
  if (typeof settings === 'object') base = settings;
  else if (typeof settings === 'string') {
    const text = settings.trim().startsWith('{') ? settings : readFileSync(resolve(cwd, settings), 'utf8');
    try {
      base = JSON.parse(text) as Record<string, unknown>;
    } catch (e) {
      throw new AssistantError(
        'config',
        `settings ${settings.trim().startsWith('{') ? '(inline JSON)' : resolve(cwd, settings)}: not valid JSON (${(e as Error).message}).`,
      );
    }
  }
  const merged = mcpServers ? { ...base, mcpServers: { ...(base.mcpServers as object | undefined), ...mcpServers } } : base;
  return JSON.stringify(merged);
}

/** The text of a streamed user message. */
function textOf(m: SDKUserMessage): string {
  const c = m?.message?.content;
  if (typeof c === 'string') return c;
  if (Array.isArray(c))
    return c
      .filter((p) => p?.type === 'text')
      .map((p) => p.text)
      .join('\n');
  throw new AssistantError('options', 'query(): a streamed user message needs message.content (a string or text blocks).', 2, [
    { path: 'prompt', message: 'a message without content' },
  ]);
}

/** The next streamed prompt, or undefined when the stream ends or the query is stopped first. */
async function nextPrompt(it: AsyncIterator<SDKUserMessage>, signal: AbortSignal): Promise<string | undefined> {
  if (signal.aborted) return undefined;
  let onAbort!: () => void;
  const aborted = new Promise<undefined>((r) => {
    onAbort = () => r(undefined);
    signal.addEventListener('abort', onAbort, { once: true });
  });
  try {
    const next = it.next();
    next.catch(() => {}); // given up on when the query stops first: its failure is nobody's
    const r = await Promise.race([next, aborted]);
    if (!r || r.done) return undefined;
    return textOf(r.value);
  } finally {
    signal.removeEventListener('abort', onAbort);
  }
}

async function run(
  prompt: string | AsyncIterable<SDKUserMessage>,
  options: Options,
  hooks: HookSpec[],
  signal: AbortSignal,
  channel: Channel<SDKMessage>,
  state: { session?: Session },
  notes: string[],
): Promise<void> {
  const cwd = resolve(options.cwd ?? process.cwd());
  if (!existsSync(cwd) || !statSync(cwd).isDirectory())
    throw new AssistantError('options', `cwd ${cwd}: no such directory.`, 2, [{ path: 'cwd', message: 'no such directory' }]);
  const home = options.env?.HOME ?? homedir();
  const setupOptions: SetupOptions = {
    model: options.model,
    maxTurns: options.maxTurns,
    permissionMode: options.permissionMode,
    settings: settingsFlag(options, cwd),
    addDir: options.addDirs ?? [],
    continue: options.continue,
    resume: options.resume,
    allowedTools: options.allowedTools ?? [],
    disallowedTools: options.disallowedTools ?? [],
    toolListNames: { allow: 'allowedTools option', deny: 'disallowedTools option' },
    verify: options.verify,
    appendSystemPrompt: options.appendSystemPrompt,
    sandbox: options.sandbox,
    thinking: options.thinking,
  };
  const loaded = loadSetup(setupOptions, cwd, home);
  const setup = { ...loaded, env: { ...loaded.env, ...options.env } };

  let held: Record<string, unknown>[] | undefined; // lines said before system/init (MCP start-up)
  const push = (line: Record<string, unknown>) => {
    if (held) held.push(line);
    else channel.push({ ...line, uuid: (line.uuid as string | undefined) ?? randomUUID() } as SDKMessage);
  };
  let apiStart = 0;
  let apiMs = 0;
  const modelName = () => {
    const m = state.session?.model;
    return m && m.provider !== 'replay' ? m.model : m?.id;
  };
  const sink = (ev: AgentEvent) => {
    if (ev.type === 'request') apiStart = performance.now();
    if (ev.type === 'message' && ev.message.role === 'assistant') apiMs += performance.now() - apiStart;
    const line = streamJsonEvent(ev, state.session?.id ?? '', modelName());
    if (line) push(line);
  };
  const canUseTool = options.canUseTool;
  const ask: AskFn = canUseTool
    ? async (req, sig) => {
        try {
          const r = await canUseTool(req.tool, req.input, {
            signal: sig,
            reason: req.reason,
            ...(req.remedy ? { remedy: req.remedy } : {}),
          });
          if (r?.behavior === 'allow') {
            const u = r.updatedInput;
            return u && typeof u === 'object' && !Array.isArray(u) ? { allow: true, updatedInput: u } : { allow: true };
          }
          if (r?.behavior === 'deny')
            return { allow: false, message: typeof r.message === 'string' && r.message ? r.message : `The program refused ${req.tool}.` };
          return { allow: false, message: `Permission to use ${req.tool} was not granted (canUseTool answered neither allow nor deny).` };
        } catch (e) {
          sink({
            type: 'warning',
            message: `canUseTool threw for ${req.tool}: ${(e as Error)?.message ?? String(e)}; the call was refused.`,
          });
          return { allow: false, message: `Permission to use ${req.tool} was not granted (the permission callback failed).` };
        }
      }
    : sdkRefuseAsk;

  const { session, warnings } = await createSession(setup, {
    emit: sink,
    ask,
    interactive: false,
    version: pkg.version,
    extraHooks: hooks,
  });
  state.session = session;
  if (session.mcp) {
    // As in Claude Code, system/init reports the MCP servers connected (or failed), with their tools.
    held = [];
    await mcpSettled(session.mcp, signal);
  }
  const early = held ?? [];
  held = undefined;
  push(initJson(session, { cwd, model: session.model.label, mode: CLAUDE_MODE_NAMES[setup.mode] }));
  for (const line of early) push(line);
  for (const message of [...notes, ...warnings]) sink({ type: 'warning', message });
  try {
    await session.start(signal);
    const prompts = typeof prompt === 'string' ? undefined : prompt[Symbol.asyncIterator]();
    let text: string | undefined = typeof prompt === 'string' ? prompt : await nextPrompt(prompts!, signal);
    while (text !== undefined) {
      const started = performance.now();
      apiMs = 0;
      const denied = session.denials.length;
      const outcome = await turn(text, session, setup, options, signal, sink);
      push(
        resultJson({
          outcome,
          sessionId: session.id,
          durationMs: performance.now() - started,
          durationApiMs: apiMs,
          costUsd: session.costUsd,
          denials: session.denials.slice(denied),
        }),
      );
      if (!prompts || signal.aborted || outcome.status === 'aborted') break;
      text = await nextPrompt(prompts, signal);
    }
    if (prompts && signal.aborted) void Promise.resolve(prompts.return?.()).catch(() => {});
  } finally {
    // SessionEnd runs even after an interrupt, with a fresh signal: it is the caller's clean-up.
    await session.end('other', AbortSignal.timeout(60_000));
  }
}

const failed = failedOutcome;

/**
 * One prompt of a query, as `-p` runs it (SPEC §6, §15): a slash command is dispatched first (a
 * custom command expanded with its grant and model, a recipe in its mode, an MCP prompt, /compact;
 * a built-in answered as headless does); what cannot run is an error result, and nothing is sent.
 */
async function turn(
  text: string,
  session: Session,
  setup: Setup,
  options: Options,
  signal: AbortSignal,
  emit: (ev: AgentEvent) => void,
): Promise<RunOutcome> {
  const d = await dispatchHeadless(text, sessionDispatchContext(session, setup, signal), setup);
  switch (d.kind) {
    case 'error':
      return failed(d.message);
    case 'print':
      return { status: 'done', text: d.text, turns: 0, usage: emptyUsage() };
    case 'compact':
      if (session.conversation.messages.length === 0)
        return failed('/compact needs a conversation: continue one with the continue or resume option.');
      return (await runCompact(session, d.instructions, signal)).outcome;
  }
  for (const message of d.warnings) emit({ type: 'warning', message });
  let model: ModelHandle | undefined;
  if (d.model) {
    const m = await commandModel(setup, d.model);
    if ('error' in m) return failed(`${d.of}: ${m.error} Nothing was sent.`);
    model = m.model;
  }
  // A recipe runs in its mode unless the caller chose one (SPEC §7).
  if (d.mode && !options.permissionMode) session.gate.setMode(d.mode);
  const run = await runPrompt(session, { prompt: d.prompt, grant: d.grant, model, mcp: d.mcp }, signal);
  return run.sent ? run.outcome : failed(`Nothing was sent: ${run.errors.join('; ')}`);
}
