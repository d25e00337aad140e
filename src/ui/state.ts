import type { AgentEvent, PermissionRequest, TodoItem, ToolKinds, ToolResult } from '../agent/events.ts';
import type { PermissionMode } from '../permissions/modes.ts';
import { groupedTool, toolTitle } from '../agent/tool-title.ts';

/**
 * What the terminal shows, as data. Finished items go to `history` and are printed once (Ink's
 * <Static>); only `live` (the answer being streamed, running tools, the spinner) and the input
 * area are redrawn. The reducer here is pure: events in, state out.
 */
export type HistoryItem =
  | { kind: 'banner'; id: number; version: string; model: string; cwd: string; resumed?: string }
  | { kind: 'user'; id: number; text: string }
  /** Markdown from the model (a finished paragraph or a whole answer). */
  | { kind: 'assistant'; id: number; text: string /** Continues the previous item's message (no bullet). */; cont?: boolean }
  | ToolItem
  /** Consecutive reads and searches of one answer, shown as one line ("Searched for 2 patterns, read 3 files"). */
  | { kind: 'group'; id: number; tools: Array<Omit<ToolItem, 'id'>> }
  | { kind: 'notice'; id: number; tone: 'info' | 'warning' | 'error' | 'success'; text: string }
  /** What `@path` references attached to the prompt above, one line each (`a.ts (3 lines)`). */
  | { kind: 'attached'; id: number; lines: string[] }
  /** Preformatted text (slash-command output). */
  | { kind: 'output'; id: number; text: string }
  /** The model's reasoning, shown folded to one line (whole in the Ctrl-O detail view). */
  | { kind: 'thinking'; id: number; text: string };

export interface ToolItem {
  kind: 'tool';
  id: number;
  name: string;
  input: unknown;
  status: 'ok' | 'error' | 'denied';
  result?: ToolResult;
  durationMs?: number;
  reason?: string /** Ran inside the OS sandbox. */;
  sandboxed?: boolean;
}

/** Distributes `Omit` over the union (the plain Omit would collapse it). */
export type NewItem = HistoryItem extends infer T ? (T extends HistoryItem ? Omit<T, 'id'> : never) : never;

/** `output`: what a running command printed so far: its last lines (`tail`), and how many lines in all. */
export interface RunningTool {
  id: string;
  name: string;
  input: unknown;
  startedAt: number;
  sandboxed?: boolean;
  output?: { tail: string; lines: number };
}

/** Characters of a running command's output kept for the screen (it shows the last few lines). */
export const LIVE_TAIL_CHARS = 4000;

export interface LiveState {
  /** Text of the answer streamed so far that is not yet in history (an unfinished paragraph). */
  streaming: string;
  /** Reasoning streamed so far in this response, not yet in history (shown as one "Thinking…" line). */
  thinking?: string;
  /** Part of the message being streamed is already in history (the rest continues it). */
  continued?: boolean;
  tools: RunningTool[];
  /** The model is working on a prompt: since when, and about how many tokens it has produced. */
  busy?: { since: number; tokens: number };
  retry?: { until: number; attempt: number; maxRetries: number; message: string };
  /** Hooks running for over a second, shown by name (SPEC §4). */
  hooks: string[];
  verifying?: string;
  /** SessionStart hooks are running: the session is not ready yet (what is typed is queued). */
  starting?: boolean;
  /** Reads and searches finished since the answer's last text or other tool: one group line, not yet in history. */
  group?: Array<Omit<ToolItem, 'id'>>;
  /** Subagents at work (SPEC §14), one folded block each: the Task call's id, its agent, its current tool, what it did. */
  agents?: RunningAgent[];
}

export interface RunningAgent {
  id: string;
  agent: string;
  description: string;
  calls: number;
  current?: string;
  done: string[];
}

export type Choice<T> = { label: string; value: T; hint?: string };

export type Question =
  /** `preview`: an Edit's or Write's change as a numbered unified diff (permission-preview.ts), when the file could be read. */
  | { kind: 'permission'; id: number; req: PermissionRequest; always: string[]; preview?: string; answer(a: PermissionChoice): void }
  | {
      kind: 'select';
      id: number;
      title: string;
      body?: string;
      options: Array<Choice<string>>;
      initial?: number;
      markdown?: boolean;
      answer(value: string | undefined): void;
    };

export type PermissionChoice = { kind: 'once' } | { kind: 'always' } | { kind: 'deny'; feedback: string } | { kind: 'interrupt' };

export interface UiState {
  /** Bumped by /clear and /resume: the printed history starts again. */
  epoch: number;
  history: HistoryItem[];
  live: LiveState;
  question?: Question;
  mode: PermissionMode;
  model: string;
  /** Tokens of the last model request (prompt + answer) and the model's window. */
  context: { used: number; window: number };
  costUsd: number;
  /** A short hint under the input ("Press Ctrl-C again to exit"). */
  hint?: string;
  /** Text to put in the input box (a rewound prompt); a new `id` replaces what is typed there. */
  draft?: { id: number; text: string /** The pastes behind `text`'s `[Pasted text #N …]` marks. */; pastes?: ReadonlyMap<number, string> };
  nextId: number;
  verbose: boolean;
  cwd: string;
  /** Ctrl-O: the whole history is shown unfolded (every tool's output and diff, each group's calls). */
  detail?: boolean;
  /** The session's task list (TodoWrite), shown under the conversation. */
  todos?: TodoItem[];
}

export function initialState(o: { mode: PermissionMode; model: string; window: number; cwd: string; verbose?: boolean }): UiState {
  return {
    epoch: 0,
    history: [],
    live: { streaming: '', tools: [], hooks: [] },
    mode: o.mode,
    model: o.model,
    context: { used: 0, window: o.window },
    costUsd: 0,
    nextId: 1,
    verbose: !!o.verbose,
    cwd: o.cwd,
  };
}

export function addItems(s: UiState, ...items: NewItem[]): UiState {
  let id = s.nextId;
  const added = items.map((it) => ({ ...it, id: id++ }) as HistoryItem);
  return { ...s, history: [...s.history, ...added], nextId: id };
}

/**
 * Splits streamed Markdown into the part that is finished (whole paragraphs, outside any code
 * fence) and the rest. Finished paragraphs go to history at once, so a long answer never makes
 * the redrawn region taller than the screen (no flicker).
 */
export function splitFinished(text: string): [string, string] {
  let cut = -1;
  let inFence = false;
  let pos = 0;
  for (const line of text.split('\n')) {
    const end = pos + line.length;
    if (/^\s*(```|~~~)/.test(line)) {
      inFence = !inFence;
      if (!inFence && end < text.length) cut = end + 1; // a closed fence ends a block
    } else if (!inFence && line.trim() === '' && pos > 0 && end < text.length) cut = end + 1;
    pos = end + 1;
  }
  if (cut <= 0) return ['', text];
  return [text.slice(0, cut).replace(/\s+$/, ''), text.slice(cut)];
}

function flushStreaming(s: UiState): UiState {
  const thought = flushThinking(s);
  const text = thought.live.streaming.replace(/\s+$/, '');
  const next = { ...thought, live: { ...thought.live, streaming: '', continued: false } };
  return text.trim() ? addItems(next, { kind: 'assistant', text, cont: !!s.live.continued }) : next;
}

/** Reasoning goes to history, folded, once the answer or a tool call follows it. */
function flushThinking(s: UiState): UiState {
  const text = s.live.thinking?.trim();
  if (s.live.thinking === undefined) return s;
  const next = { ...s, live: { ...s.live, thinking: undefined } };
  return text ? addItems(next, { kind: 'thinking', text }) : next;
}

const approxTokens = (text: string) => Math.ceil(text.length / 4);

/** A group of one is shown as that call; of more, as one group line. */
function groupItem(tools: Array<Omit<ToolItem, 'id'>>): NewItem {
  return tools.length === 1 ? tools[0] : { kind: 'group', tools };
}

/** The reads and searches run so far go to history (something else comes after them). */
function flushGroup(s: UiState): UiState {
  const g = s.live.group;
  if (!g?.length) return s;
  return addItems({ ...s, live: { ...s.live, group: undefined } }, groupItem(g));
}

/**
 * History items with runs of successful reads and searches (no text between them) put in groups,
 * as the live session groups them: for a conversation brought back by -c, -r or /rewind. Pure.
 */
export function groupTools(items: NewItem[], kinds?: ToolKinds): NewItem[] {
  const out: NewItem[] = [];
  let run: Array<Omit<ToolItem, 'id'>> = [];
  const end = () => {
    if (run.length) out.push(groupItem(run));
    run = [];
  };
  for (const it of items) {
    if (it.kind === 'tool' && groupedTool(it.name, kinds) && it.status === 'ok') {
      run.push(it);
      continue;
    }
    end();
    out.push(it);
  }
  end();
  return out;
}

/** Ctrl-O: the history shown unfolded, or folded again; printed anew (the screen is wiped first). */
export function toggleDetail(s: UiState): UiState {
  return { ...s, detail: !s.detail, epoch: s.epoch + 1 };
}

/** Applies one agent event. Pure. Runs of reads and searches (`groupedTool` of `kinds`) are grouped, as Claude Code does. */
export function reduceEvent(state: UiState, ev: AgentEvent, now: number, kinds?: ToolKinds): UiState {
  // Anything shown after a run of reads and searches ends the run: its group line goes first.
  const ends =
    ev.type === 'text-delta'
      ? !!(state.live.streaming + ev.text).trim()
      : ev.type === 'tool-start' || ev.type === 'tool-end'
        ? !groupedTool(ev.name, kinds) || (ev.type === 'tool-end' && !!ev.result.isError)
        : ev.type !== 'request' &&
          ev.type !== 'message' &&
          ev.type !== 'hook-running' &&
          ev.type !== 'tool-progress' &&
          ev.type !== 'retry' &&
          !(ev.type === 'hook' && !state.verbose);
  const s = ends ? flushGroup(state) : state;
  const live = s.live;
  switch (ev.type) {
    case 'request':
      return { ...s, live: { ...live, busy: live.busy ?? { since: now, tokens: 0 }, retry: undefined } };
    case 'thinking-delta': {
      const busy = live.busy ? { ...live.busy, tokens: live.busy.tokens + approxTokens(ev.text) } : live.busy;
      return { ...s, live: { ...live, thinking: (live.thinking ?? '') + ev.text, busy, retry: undefined } };
    }
    case 'text-delta': {
      const thought = flushThinking(s);
      const [done, rest] = splitFinished(live.streaming + ev.text);
      const busy = live.busy ? { ...live.busy, tokens: live.busy.tokens + approxTokens(ev.text) } : live.busy;
      const next = { ...thought, live: { ...thought.live, streaming: rest, busy, retry: undefined, continued: live.continued || !!done } };
      return done ? addItems(next, { kind: 'assistant', text: done, cont: !!live.continued }) : next;
    }
    case 'retry':
      return {
        ...s,
        live: {
          ...live,
          streaming: '',
          thinking: undefined,
          continued: false,
          retry: { until: now + ev.delayMs, attempt: ev.attempt, maxRetries: ev.maxRetries, message: ev.message },
        },
      };
    case 'message': {
      if (ev.message.role !== 'assistant') return s;
      let next = flushStreaming(s);
      if (ev.usage) {
        next = { ...next, context: { ...next.context, used: ev.usage.inputTokens + ev.usage.outputTokens } };
      }
      return next;
    }
    case 'subagent':
      return { ...s, live: { ...live, agents: reduceAgent(live.agents ?? [], ev, s.cwd) } };
    case 'tool-start': {
      const next = flushStreaming(s);
      return {
        ...next,
        live: {
          ...next.live,
          tools: [
            ...next.live.tools,
            { id: ev.id, name: ev.name, input: ev.input, startedAt: now, ...(ev.sandboxed ? { sandboxed: true } : {}) },
          ],
        },
      };
    }
    case 'tool-progress': {
      const tools = live.tools.map((t) => {
        if (t.id !== ev.id) return t;
        const lines = (t.output?.lines ?? 0) + (ev.output.match(/\n/g)?.length ?? 0);
        return { ...t, output: { tail: ((t.output?.tail ?? '') + ev.output).slice(-LIVE_TAIL_CHARS), lines } };
      });
      return { ...s, live: { ...live, tools } };
    }
    case 'tool-end': {
      const todos = ev.name === 'TodoWrite' && !ev.result.isError ? { todos: (ev.input as { todos: TodoItem[] }).todos } : {};
      const agents = ev.name === 'Task' ? { agents: (live.agents ?? []).filter((a) => a.id !== ev.id) } : {};
      const next = { ...s, ...todos, live: { ...live, ...agents, tools: live.tools.filter((t) => t.id !== ev.id) } };
      const sandboxed = live.tools.find((t) => t.id === ev.id)?.sandboxed;
      const item = {
        kind: 'tool',
        name: ev.name,
        input: ev.input,
        status: ev.result.isError ? 'error' : 'ok',
        result: ev.result,
        durationMs: ev.durationMs,
        ...(sandboxed ? { sandboxed } : {}),
      } as const;
      if (!ends) return { ...next, live: { ...next.live, group: [...(next.live.group ?? []), item] } };
      return addItems(next, item);
    }
    case 'tool-denied':
      return addItems(flushStreaming(s), { kind: 'tool', name: ev.name, input: ev.input, status: 'denied', reason: ev.reason });
    case 'hook-running':
      return { ...s, live: { ...live, hooks: [...live.hooks, `${ev.event}: ${ev.command}`] } };
    case 'hook': {
      const label = `${ev.event}: ${ev.command}`;
      const i = live.hooks.indexOf(label);
      const next = i < 0 ? s : { ...s, live: { ...live, hooks: live.hooks.filter((_, j) => j !== i) } };
      if (!s.verbose) return next;
      return addItems(next, {
        kind: 'notice',
        tone: 'info',
        text: `${ev.event} hook ${ev.command}: ${ev.outcome}${ev.exitCode !== null ? ` (exit ${ev.exitCode})` : ''}, ${ev.durationMs} ms`,
      });
    }
    case 'verify-start':
      return { ...flushStreaming(s), live: { ...live, streaming: '', verifying: ev.command } };
    case 'verify-end': {
      const next = { ...s, live: { ...live, verifying: undefined } };
      const secs = (ev.durationMs / 1000).toFixed(1);
      if (ev.passed) return addItems(next, { kind: 'notice', tone: 'success', text: `Verification passed: ${ev.command} (${secs}s)` });
      const tail = ev.output.trimEnd().split('\n').slice(-8).join('\n');
      return addItems(next, {
        kind: 'notice',
        tone: 'error',
        text: `Verification failed: ${ev.command} (exit ${ev.exitCode ?? '?'}, ${secs}s)${tail ? `\n${tail}` : ''}`,
      });
    }
    case 'warning':
      return addItems(s, { kind: 'notice', tone: 'warning', text: ev.message });
    case 'error':
      return addItems(s, { kind: 'notice', tone: 'error', text: ev.message });
    default:
      return s;
  }
}

/** The prompt is over: whatever was streamed is finished, nothing runs any more. */
export function endRun(s: UiState): UiState {
  const next = flushStreaming(flushGroup(s));
  return { ...next, live: { streaming: '', tools: [], hooks: [] } };
}

/** A subagent's event folded into its block: the tool it runs now and the calls it made. Pure. */
function reduceAgent(agents: RunningAgent[], ev: Extract<AgentEvent, { type: 'subagent' }>, cwd: string): RunningAgent[] {
  const inner = ev.event;
  const at = agents.findIndex((a) => a.id === ev.parentToolUseId);
  const a: RunningAgent = at >= 0 ? agents[at] : { id: ev.parentToolUseId, agent: ev.agent, description: '', calls: 0, done: [] };
  let next = a;
  if (inner.type === 'tool-start') next = { ...a, calls: a.calls + 1, current: toolTitle(inner.name, inner.input, cwd, 80) };
  else if (inner.type === 'tool-end' || inner.type === 'tool-denied') {
    const title =
      toolTitle(inner.name, inner.input, cwd, 80) + (inner.type === 'tool-denied' ? ' (refused)' : inner.result.isError ? ' (failed)' : '');
    next = { ...a, current: undefined, done: [...a.done, title].slice(-20), calls: inner.type === 'tool-denied' ? a.calls + 1 : a.calls };
  } else if (at >= 0) return agents;
  return at >= 0 ? agents.map((x, i) => (i === at ? next : x)) : [...agents, next];
}
