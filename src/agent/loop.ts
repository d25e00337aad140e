import type { LanguageModelV4ReasoningPart, LanguageModelV4ToolCallPart, LanguageModelV4ToolResultPart } from '@ai-sdk/provider';
import { addUsage, emptyUsage, type Message, type ModelHandle, type ModelRequest, type ToolSpec, type Usage } from '../providers/types.ts';
import type { ImageData } from '../tools/types.ts';
import { Reasoning } from './reasoning.ts';
import { toolOutput, userContent } from './tool-output.ts';
import type { RunOutcome } from './events.ts';
import { runCall, type CallOutcome, type ToolCall, type ToolRunContext } from './tool-call.ts';

interface LoopOptions {
  model: ModelHandle;
  system: string;
  toolSpecs: ToolSpec[];
  /** The conversation so far; the loop only appends, through `append`. */
  messages: readonly Message[];
  /** Adds a message to the conversation (and the transcript). */
  append(message: Message, usage?: Usage): void;
  run: ToolRunContext;
  signal: AbortSignal;
  maxTurns?: number;
  /** Turns counted across the session's loops (a prompt and its subagents share one `--max-turns`). */
  budget?: { used: number };
  /** Stop seam: text returned here is sent back to the model as what is left to do. */
  onStop?(signal: AbortSignal, lastText: string): Promise<string | undefined>;
  /** A reason to end the run now (a hook's `continue: false`), checked after each step. */
  halted?(): string | undefined;
  /** Extra text parts sent with the prompt (UserPromptSubmit context). */
  context?: string[];
  /** Images sent with the prompt (`@shot.png`). */
  images?: ImageData[];
  /** Runs before every request after the first (auto-compaction between requests of a long run); a text ends the run with that error. */
  beforeRequest?(signal: AbortSignal): Promise<string | undefined>;
  /** One call of a batch of several finished (its result, before the batch's tool message): recorded at once. */
  settled?(result: LanguageModelV4ToolResultPart): void;
  /** Counts refusals for permission_denials. */
  onDenied?(call: ToolCall, input: unknown): void;
}

interface StreamedTurn {
  text: string;
  /** The model's reasoning, one part per block, with what its provider wants back (signatures). */
  reasoning: LanguageModelV4ReasoningPart[];
  calls: ToolCall[];
  usage: Usage;
  end: 'ok' | 'error' | 'aborted';
  error?: string;
}

/** Streams one model response into text and tool calls. A `retry` event discards the partial response. */
async function streamTurn(opts: LoopOptions): Promise<StreamedTurn> {
  const { emit } = opts.run;
  let text = '';
  let calls: ToolCall[] = [];
  let thought = new Reasoning();
  const request: ModelRequest = { system: opts.system, messages: opts.messages as Message[], tools: opts.toolSpecs };
  const end = (rest: Omit<StreamedTurn, 'text' | 'calls' | 'reasoning'>): StreamedTurn => ({
    text,
    calls,
    reasoning: thought.parts(),
    ...rest,
  });
  for await (const ev of opts.model.stream(request, opts.signal)) {
    switch (ev.type) {
      case 'text':
        text += ev.delta;
        emit({ type: 'text-delta', text: ev.delta });
        break;
      case 'reasoning':
        thought.add(ev);
        if (ev.delta) emit({ type: 'thinking-delta', text: ev.delta });
        break;
      case 'tool-call':
        calls.push({ id: ev.id, name: ev.name, rawInput: ev.input, ...(ev.meta ? { meta: ev.meta } : {}) });
        break;
      case 'retry':
        text = '';
        calls = [];
        thought = new Reasoning();
        emit({ type: 'retry', attempt: ev.attempt, maxRetries: ev.maxRetries, delayMs: ev.delayMs, message: ev.error.message });
        break;
      case 'finish':
        if (ev.reason === 'length' && calls.length === 0)
          emit({ type: 'warning', message: 'The model hit its output limit: the answer may be cut short.' });
        if (ev.reason === 'error') return end({ usage: ev.usage, end: 'error', error: 'the model ended its answer with an error' });
        return end({ usage: ev.usage, end: 'ok' });
      case 'error':
        return end({ usage: emptyUsage(), end: 'error', error: ev.error.message });
      case 'aborted':
        return end({ usage: emptyUsage(), end: 'aborted' });
    }
  }
  return end({ usage: emptyUsage(), end: 'error', error: 'the model stream ended without a result' });
}

/** Read-only calls next to each other run concurrently; anything that writes runs alone, in order. */
async function runCalls(calls: ToolCall[], ctx: ToolRunContext, done?: (call: ToolCall, o: CallOutcome) => void): Promise<CallOutcome[]> {
  const out: CallOutcome[] = [];
  const run = async (c: ToolCall) => {
    const o = await runCall(c, ctx);
    done?.(c, o);
    return o;
  };
  for (let i = 0; i < calls.length; ) {
    let j = i;
    while (j < calls.length && ctx.tools.get(calls[j].name)?.readOnly) j++;
    if (j > i + 1) {
      out.push(...(await Promise.all(calls.slice(i, j).map(run))));
      i = j;
      continue;
    }
    out.push(await run(calls[i]));
    i++;
  }
  return out;
}

function parseInput(raw: string): unknown {
  try {
    return raw.trim() ? JSON.parse(raw) : {};
  } catch {
    return raw;
  }
}

/**
 * One user prompt, run to completion: stream a response, run its tool calls through the seams,
 * send the results back, repeat until the model answers without tool calls (and Stop lets it stop).
 * No I/O of its own; never throws for model or tool failures.
 */
export async function runAgent(userText: string, opts: LoopOptions): Promise<RunOutcome> {
  let usage = emptyUsage();
  let turns = 0;
  let lastText = '';
  opts.append({ role: 'user', content: userContent([userText, ...(opts.context ?? [])], opts.images) });
  for (;;) {
    if (opts.maxTurns !== undefined && (opts.budget?.used ?? turns) >= opts.maxTurns) {
      return { status: 'max-turns', text: lastText, turns, usage, error: `Reached the turn limit (--max-turns ${opts.maxTurns}).` };
    }
    if (opts.signal.aborted) return { status: 'aborted', text: lastText, turns, usage };
    const stop = turns > 0 ? await opts.beforeRequest?.(opts.signal) : undefined;
    if (stop !== undefined) return { status: 'error', text: lastText, turns, usage, error: stop };
    turns++;
    if (opts.budget) opts.budget.used++;
    opts.run.emit({ type: 'request', turn: turns });
    const t = await streamTurn(opts);
    usage = addUsage(usage, t.usage);
    if (t.end === 'aborted') {
      // Keep what the model had said, so a resumed session knows (tool calls never ran: dropped).
      if (t.text) opts.append({ role: 'assistant', content: [{ type: 'text', text: `${t.text}\n[interrupted by the user]` }] });
      return { status: 'aborted', text: t.text, turns, usage };
    }
    if (t.end === 'error') return { status: 'error', text: lastText, turns, usage, error: t.error };

    // Reasoning first, as the providers that need it back expect it (Anthropic's thinking blocks precede the answer).
    const content: Array<LanguageModelV4ReasoningPart | { type: 'text'; text: string } | LanguageModelV4ToolCallPart> = [...t.reasoning];
    if (t.text) content.push({ type: 'text', text: t.text });
    for (const c of t.calls)
      content.push({
        type: 'tool-call',
        toolCallId: c.id,
        toolName: c.name,
        input: parseInput(c.rawInput),
        ...(c.meta ? { providerOptions: c.meta as LanguageModelV4ToolCallPart['providerOptions'] } : {}),
      });
    opts.append({ role: 'assistant', content }, t.usage);
    lastText = t.text;

    if (t.calls.length === 0) {
      const more = opts.onStop ? await opts.onStop(opts.signal, t.text) : undefined;
      // Interrupted while Stop hooks or verification ran: not a success.
      if (opts.signal.aborted) return { status: 'aborted', text: t.text, turns, usage };
      const halt = opts.halted?.();
      if (halt !== undefined) return { status: 'stopped', text: t.text, turns, usage, error: halt };
      if (more === undefined) return { status: 'done', text: t.text, turns, usage };
      opts.append({ role: 'user', content: [{ type: 'text', text: more }] });
      continue;
    }

    const part = (c: ToolCall, o: CallOutcome): LanguageModelV4ToolResultPart => ({
      type: 'tool-result',
      toolCallId: c.id,
      toolName: c.name,
      output: toolOutput(o.result, opts.model),
    });
    // With several calls, each result is kept as it comes: a crash mid-batch loses none that finished.
    const settled = opts.settled;
    const outcomes = await runCalls(t.calls, opts.run, settled && t.calls.length > 1 ? (c, o) => settled(part(c, o)) : undefined);
    const results: LanguageModelV4ToolResultPart[] = t.calls.map((c, i) => {
      if (outcomes[i].denied) opts.onDenied?.(c, parseInput(c.rawInput));
      return part(c, outcomes[i]);
    });
    opts.append({ role: 'tool', content: results });
    if (opts.signal.aborted) return { status: 'aborted', text: lastText, turns, usage };
    const halted = opts.halted?.();
    if (halted !== undefined) return { status: 'stopped', text: lastText, turns, usage, error: halted };
  }
}
