/**
 * A scripted fake model server over real HTTP (node:http on 127.0.0.1, port 0).
 *
 * It speaks three wire formats, streaming with Server-Sent Events exactly as the real
 * APIs do, so the official AI SDK providers parse it without knowing it is fake:
 *   - Anthropic Messages        POST /v1/messages          (also /messages)
 *   - OpenAI Chat Completions   POST /v1/chat/completions  (also /chat/completions)
 *   - OpenAI Responses          POST /v1/responses         (also /responses)
 *   - Google Gemini             POST /v1beta/models/M:streamGenerateContent?alt=sse  (and :generateContent)
 *   - Ollama                    POST /api/chat             (newline-delimited JSON; `stream: false` for one object)
 * Each wire format also answers non-streaming JSON when the body says `stream: false`
 * (cut/streamError then send half of the JSON body and destroy the socket; stall sends half and waits;
 * endEarly sends half and ends the body cleanly; malformed sends its bad data as the body).
 *
 * It also answers the model-information routes that clients probe for a context window (they
 * consume no step and are recorded in `model.probes`, never in `model.requests`; with no models
 * declared they answer 404 as unknown paths do):
 *   - Ollama                    POST /api/show             ({model_info: {"<arch>.context_length": N}})
 *   - OpenAI-compatible         GET  /v1/models            ({data: [{id, context_length: N}]})
 * Declare the models with `startFakeModel({ models: [...] })` or `model.models([...])`.
 *
 *   const model = await startFakeModel();
 *   model.script(
 *     reply().text('Looking.').tool('Grep', { pattern: 'foo' }),
 *     fail(429, { retryAfter: 0 }),
 *     reply('Done.'),
 *   );
 *   createAnthropic({ apiKey: 'x', baseURL: model.url + '/v1' })   // or env ANTHROPIC_BASE_URL=model.anthropicBaseUrl
 *   createOpenAI({ apiKey: 'x', baseURL: model.openaiBaseUrl })
 *
 * Every request to a model endpoint consumes the next step, whatever its wire format, so
 * one script drives any provider. When the script is exhausted the server answers
 * HTTP 500 "fake model: script exhausted after N requests".
 */
import http from 'node:http';
import https from 'node:https';
import type { AddressInfo, Socket } from 'node:net';
import { geminiError, geminiJson, geminiStream, ollamaError, ollamaJson, ollamaStream } from './model-wires.ts';

// ───────────────────────────── types ─────────────────────────────

export type WireFormat = 'anthropic' | 'openai-chat' | 'openai-responses' | 'gemini' | 'ollama';

/** One request the server received (model endpoints and unknown paths alike). */
export interface RecordedRequest {
  /** 0-based position in `model.requests`. */
  index: number;
  method: string;
  /** The path without the query string, e.g. `/v1/messages`. */
  path: string;
  headers: http.IncomingHttpHeaders;
  /** The parsed JSON body (the raw text when it is not JSON, undefined when empty). */
  body: any;
  rawBody: string;
  /** `unknown` for paths that are not one of the three model endpoints (answered 404, consume no step). */
  format: WireFormat | 'unknown';
  /** The body asked for a streamed answer. */
  stream: boolean;
  /** What the server did with it; set once the step is chosen. */
  answer?: AnswerRecord;
}

export interface AnswerRecord {
  kind: 'reply' | 'fail' | 'cut' | 'hang' | 'stall' | 'stream-error' | 'end-early' | 'malformed' | 'exhausted' | 'not-found' | 'model-info';
  status: number;
  text?: string;
  toolCalls?: Array<{ id: string; name: string; input: unknown }>;
}

/**
 * Token usage of one reply. `input` is the total prompt size as the AI SDK reports it
 * (`usage.inputTokens.total`), cache tokens included; the server splits it per wire format
 * (Anthropic's `input_tokens` excludes the cache counts, OpenAI's `prompt_tokens` includes them).
 */
export interface UsageSpec {
  input?: number;
  output?: number;
  cacheRead?: number;
  cacheWrite?: number;
}

type Part =
  | { kind: 'text'; text: string }
  /** Reasoning: Anthropic thinking (with `signature`), Responses reasoning summary, Chat `reasoning_content`, Gemini thought, Ollama `thinking`. */
  | { kind: 'thinking'; text: string; signature?: string }
  | { kind: 'tool'; name: string; input: unknown; id?: string };

/** A search the provider ran itself (Anthropic's server tool `web_search`). */
export interface SearchSpec {
  query: string;
  results: Array<{ url: string; title?: string }> | { error: string };
}

/** One model response: text and tool calls, in order. Build it with `reply()`. */
export class ReplyBuilder {
  readonly kind = 'reply' as const;
  /** @internal */ readonly parts: Part[] = [];
  /** @internal */ usageSpec: UsageSpec = {};
  /** @internal */ delayMs = 0;
  /** @internal */ intervalMs = 0;
  /** @internal */ isTruncated = false;
  /** @internal */ searchSpec?: SearchSpec;

  /** Appends a text block; it is streamed word by word. */
  text(text: string): this {
    this.parts.push({ kind: 'text', text });
    return this;
  }

  /**
   * Appends a tool call. `input` is sent as JSON; a string is sent verbatim as the raw
   * arguments text (so `'{"file_path": "a.t'` makes malformed JSON). The id is generated
   * (`toolu_fake_N` for Anthropic, `call_fake_N` for OpenAI) unless given.
   */
  tool(name: string, input: unknown = {}, opts: { id?: string } = {}): this {
    this.parts.push({ kind: 'tool', name, input, id: opts.id });
    return this;
  }

  /**
   * Appends reasoning, streamed like text on each wire's own channel. `signature` is Anthropic's
   * thinking signature, the Responses item's encrypted content and Gemini's thought signature.
   */
  thinking(text: string, opts: { signature?: string } = {}): this {
    this.parts.push({ kind: 'thinking', text, signature: opts.signature ?? 'fake-signature' });
    return this;
  }

  /**
   * The provider ran its own web search before the rest of the reply (Anthropic wire only: a
   * `server_tool_use` block and its `web_search_tool_result`, first in the message). `results` are
   * the pages found, or `{ error }` for a `web_search_tool_result_error` with that code.
   */
  search(query: string, results: Array<{ url: string; title?: string }> | { error: string }): this {
    this.searchSpec = { query, results };
    return this;
  }

  /** Usage numbers for this reply. Defaults: input 100, output ≈ generated characters / 4. */
  usage(u: UsageSpec): this {
    this.usageSpec = { ...this.usageSpec, ...u };
    return this;
  }

  /** Waits this long before the first byte (status line and headers included). */
  delay(ms: number): this {
    this.delayMs = ms;
    return this;
  }

  /** Waits this long between two streamed events (default: one event-loop turn). */
  interval(ms: number): this {
    this.intervalMs = ms;
    return this;
  }

  /**
   * The reply stops at the output limit: Anthropic `max_tokens`, Chat `length`,
   * Responses `response.incomplete` (max_output_tokens). The SDK's finish reason is `length`.
   */
  truncated(): this {
    this.isTruncated = true;
    return this;
  }
}

export interface FailOptions {
  /** `retry-after` header, in seconds. */
  retryAfter?: number;
  /** `retry-after-ms` header, in milliseconds. */
  retryAfterMs?: number;
  /** The error message in the JSON body (a realistic default per status). */
  message?: string;
  /** The provider error type (Anthropic `error.type`, OpenAI `error.type`); default per status. */
  type?: string;
  /** Replaces the whole JSON body (sent as is, for every format). */
  body?: unknown;
  headers?: Record<string, string>;
  delay?: number;
}
export interface FailStep extends FailOptions {
  kind: 'fail';
  status: number;
}

export interface CutOptions {
  /** Number of SSE events written before the socket is destroyed. Default: half of the content events (at least one). */
  after?: number;
}
export interface CutStep extends CutOptions {
  kind: 'cut';
  reply: ReplyBuilder;
}
export interface StallStep extends CutOptions {
  kind: 'stall';
  reply: ReplyBuilder;
}
export interface HangStep {
  kind: 'hang';
}
export interface StreamErrorOptions extends CutOptions {
  /** Provider error type; default `overloaded_error` (Anthropic) / `server_error` (OpenAI). */
  type?: string;
  message?: string;
}
export interface StreamErrorStep extends StreamErrorOptions {
  kind: 'stream-error';
  reply: ReplyBuilder;
}
export interface EndEarlyStep extends CutOptions {
  kind: 'end-early';
  reply: ReplyBuilder;
}
export interface MalformedOptions {
  /** Good SSE events written before the bad one. Default 0: the bad data is the first event. */
  after?: number;
  /** The bad `data:` payload, sent verbatim. Default: a proxy's HTML error page on one line. */
  data?: string;
}
export interface MalformedStep extends MalformedOptions {
  kind: 'malformed';
  reply: ReplyBuilder;
}

/** A model the information routes know (`/api/show`, `/v1/models`). */
export interface FakeModelInfo {
  id: string;
  /** The model's context length (`<arch>.context_length` in Ollama's model_info; `context_length` in /v1/models). */
  contextLength?: number;
  /** Ollama only: a `num_ctx` parameter the model was created with (`parameters` of /api/show). */
  numCtx?: number;
  /** Ollama only: `capabilities` of /api/show (default `completion`, `tools`); add `vision`, `thinking`. */
  capabilities?: string[];
}

/** A step decided from the request it answers (e.g. echo the last tool result). */
export type StepFn = (req: RecordedRequest, model: FakeModel) => Step | Promise<Step>;
export type Step = ReplyBuilder | FailStep | CutStep | HangStep | StallStep | StreamErrorStep | EndEarlyStep | MalformedStep | StepFn;

/**
 * Consulted for every model request before the script. Return a Step to answer with it
 * (the script is not consumed), or undefined to let the script answer (an observer).
 */
export type RequestHook = (req: RecordedRequest, model: FakeModel) => Step | undefined | Promise<Step | undefined>;

export interface FakeModel {
  /** `http://127.0.0.1:PORT`, no `/v1`. */
  readonly url: string;
  readonly port: number;
  /** Anthropic SDK convention (ANTHROPIC_BASE_URL): no `/v1`. */
  readonly anthropicBaseUrl: string;
  /** OpenAI convention (OPENAI_BASE_URL): `url + '/v1'`. */
  readonly openaiBaseUrl: string;
  /** Every request received, in order (a live array; `reset()` empties it in place), except model-information probes (`probes`). */
  readonly requests: RecordedRequest[];
  /** Requests to the model-information routes (`/api/show`, `/v1/models`), in order; `reset()` empties it. */
  readonly probes: RecordedRequest[];
  /** Steps not yet consumed. */
  readonly remaining: number;
  /** Appends steps to the script. */
  script(...steps: Step[]): FakeModel;
  onRequest(hook: RequestHook | undefined): FakeModel;
  /** Replaces the models the information routes know; `reset()` keeps them. With none (the default) those routes answer 404. */
  models(list: FakeModelInfo[]): FakeModel;
  /** Forgets the script, the hook, the recorded requests and the id counters; aborts hanging answers. */
  reset(): FakeModel;
  /** Resolves once `count` requests have been received in total (fails after `timeoutMs`, 20 s by default, as runCli). */
  waitForRequests(count: number, timeoutMs?: number): Promise<RecordedRequest[]>;
  /** Environment variables that point the `assistant` CLI at this server for a provider. */
  env(provider?: 'anthropic' | 'openai' | 'openai-chat' | 'openai-compatible' | 'google' | 'ollama'): Record<string, string>;
  /** Stops the server and destroys every open connection (hanging answers included). */
  close(): Promise<void>;
}

export interface StartOptions {
  port?: number;
  host?: string;
  /** Initial script. */
  steps?: Step[];
  /** Called with a one-line summary of each request (the CLI logs them to stderr). */
  log?: (line: string) => void;
  /** Models the information routes know (see `FakeModel.models`). */
  models?: FakeModelInfo[];
  /** Serve HTTPS with this key and certificate (PEM) instead of HTTP; `url` then starts with https://. */
  tls?: { key: string; cert: string };
}

// ───────────────────────────── step builders ─────────────────────────────

/** One model response. `reply('Done.')` is `reply().text('Done.')`. */
export function reply(text?: string): ReplyBuilder {
  const r = new ReplyBuilder();
  if (text !== undefined) r.text(text);
  return r;
}

/** An HTTP error with a provider-shaped JSON body (529 is Anthropic's `overloaded_error`). */
export function fail(status: number, opts: FailOptions = {}): FailStep {
  return { kind: 'fail', status, ...opts };
}

/** Status 200 and some SSE events, then the socket is destroyed mid-stream. */
export function cut(r: ReplyBuilder | string, opts: CutOptions = {}): CutStep {
  return { kind: 'cut', reply: typeof r === 'string' ? reply(r) : r, ...opts };
}

/** Status 200 and some SSE events, then silence with the connection open (until close()). */
export function stall(r: ReplyBuilder | string, opts: CutOptions = {}): StallStep {
  return { kind: 'stall', reply: typeof r === 'string' ? reply(r) : r, ...opts };
}

/** Accepts the request and never answers, not even headers (until the client aborts or close()). */
export function hang(): HangStep {
  return { kind: 'hang' };
}

/**
 * Status 200, some SSE events, then an error event inside the stream (Anthropic
 * `event: error` / Chat `data: {"error":…}` / Responses `type: "error"`), then the stream ends.
 */
export function streamError(r: ReplyBuilder | string, opts: StreamErrorOptions = {}): StreamErrorStep {
  return { kind: 'stream-error', reply: typeof r === 'string' ? reply(r) : r, ...opts };
}

/**
 * Status 200 and some SSE events, then the body ends cleanly (no error, no final events: no
 * `message_stop`, `[DONE]` or `response.completed`). The default stop is mid-content, so a tool
 * call is left without its closing event.
 */
export function endEarly(r: ReplyBuilder | string, opts: CutOptions = {}): EndEarlyStep {
  return { kind: 'end-early', reply: typeof r === 'string' ? reply(r) : r, ...opts };
}

/** Status 200, `after` good SSE events, then one `data:` line that is not the wire format (`data`), then the body ends. */
export function malformed(r: ReplyBuilder | string, opts: MalformedOptions = {}): MalformedStep {
  return { kind: 'malformed', reply: typeof r === 'string' ? reply(r) : r, ...opts };
}

/** The default bad payload of `malformed()`. */
export const MALFORMED_DEFAULT = '<html><head><title>502 Bad Gateway</title></head><body>nginx</body></html>';

// ───────────────────────────── serialisable steps (CLI, JSON fixtures) ─────────────────────────────

export interface JsonReply {
  /** Reasoning before the text (see `ReplyBuilder.thinking`). */
  thinking?: string;
  text?: string;
  tools?: Array<{ name: string; input?: unknown; id?: string }>;
  /** A search the provider ran first (see `ReplyBuilder.search`; Anthropic wire only). */
  search?: SearchSpec;
  usage?: UsageSpec;
  delay?: number;
  interval?: number;
  truncated?: boolean;
}
export type JsonStep =
  | string
  | JsonReply
  | ({ fail: number } & Omit<FailOptions, 'body'> & { body?: unknown })
  | ({ cut: JsonReply | string } & CutOptions)
  | ({ stall: JsonReply | string } & CutOptions)
  | ({ streamError: JsonReply | string } & StreamErrorOptions)
  | ({ endEarly: JsonReply | string } & CutOptions)
  | ({ malformed: JsonReply | string } & MalformedOptions)
  | { hang: true };

function replyFromJson(j: JsonReply | string): ReplyBuilder {
  if (typeof j === 'string') return reply(j);
  const r = reply();
  if (j.thinking !== undefined) r.thinking(j.thinking);
  if (j.search) r.search(j.search.query, j.search.results);
  if (j.text !== undefined) r.text(j.text);
  for (const t of j.tools ?? []) r.tool(t.name, t.input ?? {}, { id: t.id });
  if (j.usage) r.usage(j.usage);
  if (j.delay) r.delay(j.delay);
  if (j.interval) r.interval(j.interval);
  if (j.truncated) r.truncated();
  return r;
}

/**
 * Turns a serialisable step into a Step: `"Done."`, `{"text":"…","tools":[{"name":"Read","input":{}}]}`,
 * `{"fail":429,"retryAfter":0}`, `{"cut":{"text":"…"},"after":3}`, `{"stall":"…"}`,
 * `{"streamError":"…","type":"overloaded_error"}`, `{"endEarly":{…},"after":4}`, `{"malformed":"…","data":"oops"}`, `{"hang":true}`.
 */
export function stepFromJson(j: JsonStep): Step {
  if (typeof j === 'string') return reply(j);
  if (j === null || typeof j !== 'object') throw new Error(`fake model: a step must be a string or an object, got ${JSON.stringify(j)}`);
  if ('fail' in j) {
    const { fail: status, ...rest } = j;
    return fail(status, rest);
  }
  if ('cut' in j) return cut(replyFromJson(j.cut), { after: j.after });
  if ('stall' in j) return stall(replyFromJson(j.stall), { after: j.after });
  if ('streamError' in j) return streamError(replyFromJson(j.streamError), { after: j.after, type: j.type, message: j.message });
  if ('endEarly' in j) return endEarly(replyFromJson(j.endEarly), { after: j.after });
  if ('malformed' in j) return malformed(replyFromJson(j.malformed), { after: j.after, data: j.data });
  if ('hang' in j) return hang();
  const known = ['thinking', 'text', 'tools', 'search', 'usage', 'delay', 'interval', 'truncated'];
  const unknownKeys = Object.keys(j).filter((k) => !known.includes(k));
  if (unknownKeys.length) throw new Error(`fake model: unknown step keys ${unknownKeys.join(', ')} in ${JSON.stringify(j)}`);
  return replyFromJson(j as JsonReply);
}

// ───────────────────────────── reading what the model received ─────────────────────────────

export interface ReceivedToolResult {
  toolUseId: string;
  /** The result as text (text parts of a structured result joined with newlines). */
  content: string;
  /** Anthropic's `is_error`; undefined for both OpenAI formats, which have no such flag on the wire. */
  isError: boolean | undefined;
}

type Json = any;

function partsText(content: Json): string {
  if (content == null) return '';
  if (typeof content === 'string') return content;
  if (Array.isArray(content)) {
    return content
      .map((p: Json) => {
        if (typeof p === 'string') return p;
        if (p && typeof p.text === 'string') return p.text;
        if (p && (p.type === 'image' || p.type === 'input_image' || p.type === 'image_url')) return '[image]';
        return '';
      })
      .filter((s: string) => s !== '')
      .join('\n');
  }
  if (typeof content === 'object' && typeof content.text === 'string') return content.text;
  return JSON.stringify(content);
}

function formatOf(req: RecordedRequest | Json): WireFormat | 'unknown' {
  return (req as RecordedRequest).format ?? 'unknown';
}

function isAssistantItem(item: Json): boolean {
  if (!item || typeof item !== 'object') return false;
  if (item.role === 'assistant') return true;
  return ['function_call', 'custom_tool_call', 'reasoning', 'item_reference', 'local_shell_call', 'shell_call'].includes(item.type);
}

function collectToolResults(req: RecordedRequest, onlyLast: boolean): ReceivedToolResult[] {
  const body = req.body ?? {};
  const out: ReceivedToolResult[] = [];
  switch (formatOf(req)) {
    case 'anthropic': {
      const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
      let start = 0;
      if (onlyLast)
        for (let i = messages.length - 1; i >= 0; i--)
          if (messages[i]?.role === 'assistant') {
            start = i + 1;
            break;
          }
      for (const m of messages.slice(start)) {
        if (m?.role !== 'user' || !Array.isArray(m.content)) continue;
        for (const b of m.content) {
          if (b?.type === 'tool_result')
            out.push({ toolUseId: b.tool_use_id, content: partsText(b.content), isError: b.is_error === true });
        }
      }
      return out;
    }
    case 'openai-chat': {
      const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
      let start = 0;
      if (onlyLast)
        for (let i = messages.length - 1; i >= 0; i--)
          if (messages[i]?.role === 'assistant') {
            start = i + 1;
            break;
          }
      for (const m of messages.slice(start)) {
        if (m?.role === 'tool') out.push({ toolUseId: m.tool_call_id, content: partsText(m.content), isError: undefined });
      }
      return out;
    }
    case 'openai-responses': {
      const input: Json[] = Array.isArray(body.input) ? body.input : [];
      let start = 0;
      if (onlyLast)
        for (let i = input.length - 1; i >= 0; i--)
          if (isAssistantItem(input[i])) {
            start = i + 1;
            break;
          }
      for (const item of input.slice(start)) {
        if (item?.type === 'function_call_output' || item?.type === 'custom_tool_call_output') {
          out.push({ toolUseId: item.call_id, content: partsText(item.output), isError: undefined });
        }
      }
      return out;
    }
    case 'gemini': {
      const contents: Json[] = Array.isArray(body.contents) ? body.contents : [];
      let start = 0;
      if (onlyLast)
        for (let i = contents.length - 1; i >= 0; i--)
          if (contents[i]?.role === 'model') {
            start = i + 1;
            break;
          }
      for (const c of contents.slice(start)) {
        for (const part of Array.isArray(c?.parts) ? c.parts : []) {
          const fr = part?.functionResponse;
          if (!fr) continue;
          const r = fr.response ?? {};
          out.push({
            toolUseId: fr.id ?? fr.name,
            content:
              typeof r.content === 'string' ? r.content : typeof r.error === 'string' ? r.error : JSON.stringify(r.content ?? r.error ?? r),
            isError: undefined,
          });
        }
      }
      return out;
    }
    case 'ollama': {
      const messages: Json[] = Array.isArray(body.messages) ? body.messages : [];
      let start = 0;
      if (onlyLast)
        for (let i = messages.length - 1; i >= 0; i--)
          if (messages[i]?.role === 'assistant') {
            start = i + 1;
            break;
          }
      for (const m of messages.slice(start)) {
        if (m?.role === 'tool') out.push({ toolUseId: m.tool_call_id ?? m.tool_name, content: partsText(m.content), isError: undefined });
      }
      return out;
    }
    default:
      return out;
  }
}

/** The tool results sent after the model's last turn (what the model is asked to react to now). */
export function lastToolResults(req: RecordedRequest): ReceivedToolResult[] {
  return collectToolResults(req, true);
}

/** Every tool result in the conversation, oldest first. */
export function toolResults(req: RecordedRequest): ReceivedToolResult[] {
  return collectToolResults(req, false);
}

/** The system prompt (several system blocks/messages joined with a blank line), or undefined. */
export function systemPrompt(req: RecordedRequest): string | undefined {
  const body = req.body ?? {};
  const parts: string[] = [];
  switch (formatOf(req)) {
    case 'anthropic':
      if (body.system != null) parts.push(partsText(body.system));
      break;
    case 'openai-chat':
      for (const m of body.messages ?? []) if (m?.role === 'system' || m?.role === 'developer') parts.push(partsText(m.content));
      break;
    case 'gemini':
      for (const p of body.systemInstruction?.parts ?? []) if (typeof p?.text === 'string') parts.push(p.text);
      break;
    case 'ollama':
      for (const m of body.messages ?? []) if (m?.role === 'system') parts.push(partsText(m.content));
      break;
    case 'openai-responses':
      if (typeof body.instructions === 'string') parts.push(body.instructions);
      for (const m of Array.isArray(body.input) ? body.input : []) {
        if (m?.role === 'system' || m?.role === 'developer') parts.push(partsText(m.content));
      }
      break;
    default:
      return undefined;
  }
  const text = parts.filter((p) => p !== '').join('\n\n');
  return text === '' ? undefined : text;
}

/** The text of every user message, oldest first (tool results excluded; one entry per message). */
export function userTexts(req: RecordedRequest): string[] {
  const body = req.body ?? {};
  const out: string[] = [];
  const fromContent = (content: Json) => {
    if (typeof content === 'string') return content;
    if (!Array.isArray(content)) return '';
    return content
      .filter((p: Json) => p && (p.type === 'text' || p.type === 'input_text') && typeof p.text === 'string')
      .map((p: Json) => p.text as string)
      .join('\n');
  };
  const messages: Json[] =
    formatOf(req) === 'openai-responses'
      ? typeof body.input === 'string'
        ? [{ role: 'user', content: body.input }]
        : Array.isArray(body.input)
          ? body.input
          : []
      : formatOf(req) === 'gemini'
        ? (body.contents ?? []).map((c: Json) => ({
            role: c?.role,
            content: (c?.parts ?? [])
              .filter((p: Json) => typeof p?.text === 'string' && !p.thought)
              .map((p: Json) => ({ type: 'text', text: p.text })),
          }))
        : Array.isArray(body.messages)
          ? body.messages
          : [];
  for (const m of messages) {
    if (m?.role !== 'user') continue;
    const text = fromContent(m.content);
    if (text !== '') out.push(text);
  }
  return out;
}

/** The names of the tools offered to the model. */
export function toolNames(req: RecordedRequest): string[] {
  const raw: Json[] = Array.isArray(req.body?.tools) ? req.body.tools : [];
  const tools = formatOf(req) === 'gemini' ? raw.flatMap((t) => t?.functionDeclarations ?? []) : raw;
  return tools.map((t) => t?.name ?? t?.function?.name).filter((n): n is string => typeof n === 'string');
}

/** An image the request carries, whatever the wire: in a tool result, or in a user message. */
export interface ReceivedImage {
  where: 'tool-result' | 'user';
  mediaType: string;
  data: string;
}

const fromDataUrl = (url: unknown): { mediaType: string; data: string } | undefined => {
  const m = typeof url === 'string' ? /^data:([^;]+);base64,(.*)$/s.exec(url) : null;
  return m ? { mediaType: m[1], data: m[2] } : undefined;
};

/** Every image in a request, oldest first, in each wire's own shape (Anthropic `image`, Responses `input_image`, Chat `image_url`, Gemini `inlineData`, Ollama `images`). */
export function receivedImages(req: RecordedRequest): ReceivedImage[] {
  const body = req.body ?? {};
  const out: ReceivedImage[] = [];
  const one = (p: Json, where: ReceivedImage['where']) => {
    if (p?.type === 'image' && p.source?.type === 'base64') out.push({ where, mediaType: p.source.media_type, data: p.source.data });
    else if (p?.type === 'input_image') {
      const d = fromDataUrl(p.image_url);
      if (d) out.push({ where, ...d });
    } else if (p?.type === 'image_url') {
      const d = fromDataUrl(p.image_url?.url);
      if (d) out.push({ where, ...d });
    } else if (p?.inlineData) out.push({ where, mediaType: p.inlineData.mimeType, data: p.inlineData.data });
  };
  switch (formatOf(req)) {
    case 'anthropic':
      for (const m of body.messages ?? [])
        for (const b of Array.isArray(m?.content) ? m.content : []) {
          if (b?.type === 'tool_result') for (const c of Array.isArray(b.content) ? b.content : []) one(c, 'tool-result');
          else if (m.role === 'user') one(b, 'user');
        }
      break;
    case 'openai-responses':
      for (const item of Array.isArray(body.input) ? body.input : []) {
        if (item?.type === 'function_call_output') for (const c of Array.isArray(item.output) ? item.output : []) one(c, 'tool-result');
        else if (item?.role === 'user') for (const c of Array.isArray(item.content) ? item.content : []) one(c, 'user');
      }
      break;
    case 'openai-chat':
      for (const m of body.messages ?? [])
        for (const c of Array.isArray(m?.content) ? m.content : []) one(c, m.role === 'tool' ? 'tool-result' : 'user');
      break;
    case 'gemini':
      // Gemini 3 puts a result's image inside its functionResponse; earlier models beside it, in the same content.
      for (const c of body.contents ?? []) {
        const results = (c?.parts ?? []).some((p: Json) => p?.functionResponse);
        for (const p of c?.parts ?? []) {
          if (p?.functionResponse) for (const fp of p.functionResponse.parts ?? []) one(fp, 'tool-result');
          else one(p, results ? 'tool-result' : 'user');
        }
      }
      break;
    case 'ollama':
      for (const m of body.messages ?? [])
        for (const img of Array.isArray(m?.images) ? m.images : [])
          out.push({ where: m.role === 'tool' ? 'tool-result' : 'user', mediaType: 'image/*', data: img });
      break;
    default:
  }
  return out;
}

// ───────────────────────────── wire encoding ─────────────────────────────

export interface SseEvent {
  /** The `event:` line (Anthropic and Responses send one; Chat does not). */
  event?: string;
  /** The `data:` payload: an object (JSON-encoded) or a literal such as `[DONE]`. */
  data: unknown;
  /** Carries generated content (a text or tool-argument delta): the default cut point counts these. */
  content?: boolean;
  /** Written as one line of JSON (Ollama's newline-delimited stream), not as an SSE event. */
  line?: boolean;
}

export interface ResolvedTool {
  id: string;
  name: string;
  args: string;
  input: unknown;
}
export interface Rendered {
  parts: Array<{ kind: 'text'; text: string } | { kind: 'thinking'; text: string; signature?: string } | ({ kind: 'tool' } & ResolvedTool)>;
  usage: Required<UsageSpec>;
  model: string;
  truncated: boolean;
  /** A search the provider ran first (Anthropic only), with its block id. */
  search?: SearchSpec & { id: string };
}

function encodeSse(e: SseEvent): string {
  if (e.line) return `${typeof e.data === 'string' ? e.data : JSON.stringify(e.data)}\n`;
  const data = typeof e.data === 'string' ? e.data : JSON.stringify(e.data);
  return `${e.event ? `event: ${e.event}\n` : ''}data: ${data}\n\n`;
}

/** Splits text into small word-sized chunks (a word with its trailing space). */
export function textChunks(text: string): string[] {
  if (text === '') return [''];
  const words = text.match(/\s*\S+\s*/g) ?? [text];
  // Long single words are sliced too, so any text streams in several pieces.
  return words.flatMap((w) => (w.length > 24 ? (w.match(/[\s\S]{1,16}/g) ?? [w]) : [w]));
}

/** Splits raw tool arguments into about three pieces (so the client must concatenate). */
function argChunks(args: string): string[] {
  if (args.length <= 3) return [args];
  const size = Math.ceil(args.length / 3);
  const out: string[] = [];
  for (let i = 0; i < args.length; i += size) out.push(args.slice(i, i + size));
  return out;
}

function anthropicUsageSplit(u: Required<UsageSpec>) {
  return {
    input_tokens: Math.max(0, u.input - u.cacheRead - u.cacheWrite),
    cache_creation_input_tokens: u.cacheWrite,
    cache_read_input_tokens: u.cacheRead,
  };
}

function openaiChatUsage(u: Required<UsageSpec>) {
  return {
    prompt_tokens: u.input,
    completion_tokens: u.output,
    total_tokens: u.input + u.output,
    prompt_tokens_details: { cached_tokens: u.cacheRead, ...(u.cacheWrite ? { cache_write_tokens: u.cacheWrite } : {}) },
    completion_tokens_details: { reasoning_tokens: 0 },
  };
}

function openaiResponsesUsage(u: Required<UsageSpec>) {
  return {
    input_tokens: u.input,
    input_tokens_details: { cached_tokens: u.cacheRead, ...(u.cacheWrite ? { cache_write_tokens: u.cacheWrite } : {}) },
    output_tokens: u.output,
    output_tokens_details: { reasoning_tokens: 0 },
    total_tokens: u.input + u.output,
  };
}

function anthropicInputObject(t: ResolvedTool): unknown {
  if (typeof t.input !== 'string') return t.input ?? {};
  try {
    return JSON.parse(t.input);
  } catch {
    return {};
  }
}

// Anthropic Messages

function anthropicStream(r: Rendered, msgId: string): SseEvent[] {
  const ev: SseEvent[] = [];
  const hasTool = r.parts.some((p) => p.kind === 'tool');
  ev.push({
    event: 'message_start',
    data: {
      type: 'message_start',
      message: {
        id: msgId,
        type: 'message',
        role: 'assistant',
        model: r.model,
        content: [],
        stop_reason: null,
        stop_sequence: null,
        usage: { ...anthropicUsageSplit(r.usage), output_tokens: 1 },
      },
    },
  });
  const searchBlocks = anthropicSearchBlocks(r);
  searchBlocks.forEach((block, index) => {
    const { input, ...start } = block as { input?: unknown };
    ev.push({
      event: 'content_block_start',
      data: { type: 'content_block_start', index, content_block: input === undefined ? block : { ...start, input: {} } },
    });
    if (input !== undefined)
      ev.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: JSON.stringify(input) } },
        content: true,
      });
    ev.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  r.parts.forEach((p, at) => {
    const index = at + searchBlocks.length;
    if (p.kind === 'thinking') {
      ev.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'thinking', thinking: '', signature: '' } },
      });
      for (const chunk of textChunks(p.text)) {
        ev.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'thinking_delta', thinking: chunk } },
          content: true,
        });
      }
      ev.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'signature_delta', signature: p.signature ?? '' } },
      });
    } else if (p.kind === 'text') {
      ev.push({ event: 'content_block_start', data: { type: 'content_block_start', index, content_block: { type: 'text', text: '' } } });
      if (at === 0) ev.push({ event: 'ping', data: { type: 'ping' } });
      for (const chunk of textChunks(p.text)) {
        ev.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'text_delta', text: chunk } },
          content: true,
        });
      }
    } else {
      ev.push({
        event: 'content_block_start',
        data: { type: 'content_block_start', index, content_block: { type: 'tool_use', id: p.id, name: p.name, input: {} } },
      });
      ev.push({
        event: 'content_block_delta',
        data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: '' } },
      });
      for (const chunk of argChunks(p.args)) {
        ev.push({
          event: 'content_block_delta',
          data: { type: 'content_block_delta', index, delta: { type: 'input_json_delta', partial_json: chunk } },
          content: true,
        });
      }
    }
    ev.push({ event: 'content_block_stop', data: { type: 'content_block_stop', index } });
  });
  const stop = r.truncated ? 'max_tokens' : hasTool ? 'tool_use' : 'end_turn';
  ev.push({
    event: 'message_delta',
    data: { type: 'message_delta', delta: { stop_reason: stop, stop_sequence: null }, usage: { output_tokens: r.usage.output } },
  });
  ev.push({ event: 'message_stop', data: { type: 'message_stop' } });
  return ev;
}

/** The search the provider ran, as Anthropic's two blocks: the `server_tool_use` (with its input) and its `web_search_tool_result`. */
function anthropicSearchBlocks(r: Rendered): unknown[] {
  if (!r.search) return [];
  const { id, query, results } = r.search;
  const content = Array.isArray(results)
    ? results.map((x) => ({
        type: 'web_search_result',
        url: x.url,
        title: x.title ?? null,
        encrypted_content: 'fake-encrypted',
        page_age: null,
      }))
    : { type: 'web_search_tool_result_error', error_code: results.error };
  return [
    { type: 'server_tool_use', id, name: 'web_search', input: { query } },
    { type: 'web_search_tool_result', tool_use_id: id, content },
  ];
}

function anthropicJson(r: Rendered, msgId: string): unknown {
  const hasTool = r.parts.some((p) => p.kind === 'tool');
  return {
    id: msgId,
    type: 'message',
    role: 'assistant',
    model: r.model,
    content: [
      ...anthropicSearchBlocks(r),
      ...r.parts.map((p) =>
        p.kind === 'thinking'
          ? { type: 'thinking', thinking: p.text, signature: p.signature ?? '' }
          : p.kind === 'text'
            ? { type: 'text', text: p.text }
            : { type: 'tool_use', id: p.id, name: p.name, input: anthropicInputObject(p) },
      ),
    ],
    stop_reason: r.truncated ? 'max_tokens' : hasTool ? 'tool_use' : 'end_turn',
    stop_sequence: null,
    usage: { ...anthropicUsageSplit(r.usage), output_tokens: r.usage.output },
  };
}

// OpenAI Chat Completions

function chatStream(r: Rendered, id: string, includeUsage: boolean): SseEvent[] {
  const created = Math.floor(Date.now() / 1000);
  const base = { id, object: 'chat.completion.chunk', created, model: r.model, system_fingerprint: null };
  const usageNull = includeUsage ? { usage: null } : {};
  const chunk = (delta: unknown, finish: string | null = null, content = false): SseEvent => ({
    data: { ...base, choices: [{ index: 0, delta, logprobs: null, finish_reason: finish }], ...usageNull },
    content,
  });
  const ev: SseEvent[] = [];
  const firstIsText = r.parts[0]?.kind === 'text';
  ev.push(chunk({ role: 'assistant', content: firstIsText ? '' : null, refusal: null }));
  let toolIndex = 0;
  for (const p of r.parts) {
    if (p.kind === 'thinking') {
      for (const c of textChunks(p.text)) ev.push(chunk({ reasoning_content: c }, null, true));
    } else if (p.kind === 'text') {
      for (const c of textChunks(p.text)) ev.push(chunk({ content: c }, null, true));
    } else {
      const index = toolIndex++;
      ev.push(chunk({ tool_calls: [{ index, id: p.id, type: 'function', function: { name: p.name, arguments: '' } }] }));
      for (const c of argChunks(p.args)) ev.push(chunk({ tool_calls: [{ index, function: { arguments: c } }] }, null, true));
    }
  }
  const finish = r.truncated ? 'length' : toolIndex > 0 ? 'tool_calls' : 'stop';
  ev.push(chunk({}, finish));
  if (includeUsage) ev.push({ data: { ...base, choices: [], usage: openaiChatUsage(r.usage) } });
  ev.push({ data: '[DONE]' });
  return ev;
}

function chatJson(r: Rendered, id: string): unknown {
  const text = r.parts
    .filter((p) => p.kind === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
  const tools = r.parts.filter((p): p is { kind: 'tool' } & ResolvedTool => p.kind === 'tool');
  const reasoning = r.parts
    .filter((p) => p.kind === 'thinking')
    .map((p) => (p as { text: string }).text)
    .join('');
  return {
    id,
    object: 'chat.completion',
    created: Math.floor(Date.now() / 1000),
    model: r.model,
    system_fingerprint: null,
    choices: [
      {
        index: 0,
        message: {
          role: 'assistant',
          content: text === '' && tools.length ? null : text,
          ...(reasoning ? { reasoning_content: reasoning } : {}),
          refusal: null,
          ...(tools.length
            ? { tool_calls: tools.map((t) => ({ id: t.id, type: 'function', function: { name: t.name, arguments: t.args } })) }
            : {}),
        },
        logprobs: null,
        finish_reason: r.truncated ? 'length' : tools.length ? 'tool_calls' : 'stop',
      },
    ],
    usage: openaiChatUsage(r.usage),
  };
}

// OpenAI Responses

function responsesOutput(r: Rendered, idFor: (i: number, kind: 'msg' | 'fc' | 'rs') => string): unknown[] {
  return r.parts.map((p, i) =>
    p.kind === 'thinking'
      ? { id: idFor(i, 'rs'), type: 'reasoning', encrypted_content: p.signature ?? null, summary: [{ type: 'summary_text', text: p.text }] }
      : p.kind === 'text'
        ? {
            id: idFor(i, 'msg'),
            type: 'message',
            status: 'completed',
            role: 'assistant',
            content: [{ type: 'output_text', annotations: [], logprobs: [], text: p.text }],
          }
        : { id: idFor(i, 'fc'), type: 'function_call', status: 'completed', arguments: p.args, call_id: p.id, name: p.name },
  );
}

function responseObject(
  r: Rendered,
  respId: string,
  createdAt: number,
  status: 'in_progress' | 'completed' | 'incomplete',
  output: unknown[],
): Record<string, unknown> {
  return {
    id: respId,
    object: 'response',
    created_at: createdAt,
    status,
    model: r.model,
    error: null,
    incomplete_details: status === 'incomplete' ? { reason: 'max_output_tokens' } : null,
    output,
    parallel_tool_calls: true,
    usage: status === 'in_progress' ? null : openaiResponsesUsage(r.usage),
  };
}

function responsesStream(r: Rendered, respId: string): SseEvent[] {
  const createdAt = Math.floor(Date.now() / 1000);
  const idFor = (i: number, kind: 'msg' | 'fc' | 'rs') => `${kind}_${respId.slice(5)}_${i}`;
  const ev: SseEvent[] = [];
  let seq = 0;
  const push = (type: string, fields: Record<string, unknown>, content = false) => {
    ev.push({ event: type, data: { type, sequence_number: seq++, ...fields }, content });
  };
  push('response.created', { response: responseObject(r, respId, createdAt, 'in_progress', []) });
  push('response.in_progress', { response: responseObject(r, respId, createdAt, 'in_progress', []) });
  const output = responsesOutput(r, idFor);
  r.parts.forEach((p, output_index) => {
    if (p.kind === 'thinking') {
      const item_id = idFor(output_index, 'rs');
      push('response.output_item.added', {
        output_index,
        item: { id: item_id, type: 'reasoning', encrypted_content: p.signature ?? null, summary: [] },
      });
      push('response.reasoning_summary_part.added', { item_id, output_index, summary_index: 0, part: { type: 'summary_text', text: '' } });
      for (const c of textChunks(p.text))
        push('response.reasoning_summary_text.delta', { item_id, output_index, summary_index: 0, delta: c }, true);
      push('response.reasoning_summary_part.done', {
        item_id,
        output_index,
        summary_index: 0,
        part: { type: 'summary_text', text: p.text },
      });
    } else if (p.kind === 'text') {
      const item_id = idFor(output_index, 'msg');
      push('response.output_item.added', {
        output_index,
        item: { id: item_id, type: 'message', status: 'in_progress', content: [], role: 'assistant' },
      });
      push('response.content_part.added', {
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: '' },
      });
      for (const c of textChunks(p.text))
        push('response.output_text.delta', { item_id, output_index, content_index: 0, delta: c, logprobs: [] }, true);
      push('response.output_text.done', { item_id, output_index, content_index: 0, text: p.text, logprobs: [] });
      push('response.content_part.done', {
        item_id,
        output_index,
        content_index: 0,
        part: { type: 'output_text', annotations: [], logprobs: [], text: p.text },
      });
    } else {
      const item_id = idFor(output_index, 'fc');
      push('response.output_item.added', {
        output_index,
        item: { id: item_id, type: 'function_call', status: 'in_progress', arguments: '', call_id: p.id, name: p.name },
      });
      for (const c of argChunks(p.args)) push('response.function_call_arguments.delta', { item_id, output_index, delta: c }, true);
      push('response.function_call_arguments.done', { item_id, output_index, arguments: p.args });
    }
    push('response.output_item.done', { output_index, item: output[output_index] });
  });
  const final = r.truncated ? 'incomplete' : 'completed';
  push(`response.${final}`, { response: responseObject(r, respId, createdAt, final, output) });
  return ev;
}

// Errors

const ANTHROPIC_ERROR_TYPES: Record<number, string> = {
  400: 'invalid_request_error',
  401: 'authentication_error',
  402: 'billing_error',
  403: 'permission_error',
  404: 'not_found_error',
  413: 'request_too_large',
  429: 'rate_limit_error',
  500: 'api_error',
  504: 'timeout_error',
  529: 'overloaded_error',
};
const OPENAI_ERROR_TYPES: Record<number, [type: string, code: string | null]> = {
  400: ['invalid_request_error', null],
  401: ['invalid_request_error', 'invalid_api_key'],
  403: ['invalid_request_error', 'unsupported_country_region_territory'],
  404: ['invalid_request_error', 'model_not_found'],
  429: ['requests', 'rate_limit_exceeded'],
  500: ['server_error', null],
  503: ['server_error', null],
};
const DEFAULT_MESSAGES: Record<number, string> = {
  400: 'Invalid request',
  401: 'invalid x-api-key',
  403: 'Forbidden',
  404: 'Not found',
  413: 'Request exceeds the maximum allowed number of bytes.',
  429: 'Rate limit exceeded: too many requests (fake model)',
  500: 'Internal server error',
  502: 'Bad gateway',
  503: 'Service unavailable',
  504: 'Gateway timeout',
  529: 'Overloaded',
};

function errorBody(format: WireFormat | 'unknown', status: number, message?: string, type?: string): unknown {
  const msg = message ?? DEFAULT_MESSAGES[status] ?? `HTTP ${status}`;
  if (format === 'gemini') return geminiError(status, msg, type);
  if (format === 'ollama') return ollamaError(msg);
  if (format === 'anthropic') {
    return {
      type: 'error',
      error: { type: type ?? ANTHROPIC_ERROR_TYPES[status] ?? (status >= 500 ? 'api_error' : 'invalid_request_error'), message: msg },
    };
  }
  const [t, code] = OPENAI_ERROR_TYPES[status] ?? [
    status === 529 ? 'overloaded_error' : status >= 500 ? 'server_error' : 'invalid_request_error',
    null,
  ];
  return { error: { message: msg, type: type ?? t, param: null, code } };
}

function streamErrorEvent(format: WireFormat, seq: number, type?: string, message?: string): SseEvent {
  if (format === 'gemini') return { data: geminiError(503, message ?? 'The model is overloaded. Please try again later.', type) };
  if (format === 'ollama') return { line: true, data: ollamaError(message ?? 'an error was encountered while running the model') };
  if (format === 'anthropic') {
    return { event: 'error', data: { type: 'error', error: { type: type ?? 'overloaded_error', message: message ?? 'Overloaded' } } };
  }
  if (format === 'openai-chat') {
    return {
      data: {
        error: {
          message: message ?? 'The server had an error while processing your request.',
          type: type ?? 'server_error',
          param: null,
          code: null,
        },
      },
    };
  }
  return {
    event: 'error',
    data: {
      type: 'error',
      sequence_number: seq,
      code: type ?? 'server_error',
      message: message ?? 'The server had an error while processing your request.',
      param: null,
    },
  };
}

// ───────────────────────────── the server ─────────────────────────────

const sleep = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));
const tick = () => new Promise<void>((resolve) => setImmediate(resolve));

function formatForPath(path: string): WireFormat | 'unknown' {
  const p = path.replace(/\/+$/, '');
  if (/^(\/v1beta)?\/models\/[^/]+:(stream)?[gG]enerateContent$/.test(p)) return 'gemini';
  if (p === '/api/chat') return 'ollama';
  if (p === '/v1/messages' || p === '/messages') return 'anthropic';
  if (p === '/v1/chat/completions' || p === '/chat/completions') return 'openai-chat';
  if (p === '/v1/responses' || p === '/responses') return 'openai-responses';
  return 'unknown';
}

function summarise(req: RecordedRequest): string {
  const a = req.answer;
  const what = !a
    ? ''
    : a.kind === 'reply'
      ? `reply${a.text ? ` ${JSON.stringify(a.text.length > 40 ? `${a.text.slice(0, 40)}…` : a.text)}` : ''}${a.toolCalls?.length ? ` tools=${a.toolCalls.map((t) => t.name).join(',')}` : ''}`
      : `${a.kind} ${a.status}`;
  return `#${req.index} ${req.method} ${req.path} (${req.format}) → ${what}`;
}

/** Starts a fake model server on 127.0.0.1 (an ephemeral port unless told). */
export async function startFakeModel(opts: StartOptions = {}): Promise<FakeModel> {
  const steps: Step[] = [...(opts.steps ?? [])];
  const requests: RecordedRequest[] = [];
  const probes: RecordedRequest[] = [];
  let infos: FakeModelInfo[] = [...(opts.models ?? [])];
  let hook: RequestHook | undefined;
  let toolSeq = 0;
  let msgSeq = 0;
  let closed = false;
  const sockets = new Set<Socket>();
  /** Responses deliberately left open (hang/stall): ended by reset() and close(). */
  const parked = new Set<http.ServerResponse>();
  const waiters: Array<{ count: number; resolve: (r: RecordedRequest[]) => void }> = [];

  const notifyWaiters = () => {
    for (const w of [...waiters]) {
      if (requests.length >= w.count) {
        waiters.splice(waiters.indexOf(w), 1);
        w.resolve(requests);
      }
    }
  };

  const render = (r: ReplyBuilder, format: WireFormat, body: Json): Rendered => {
    const parts = r.parts.map((p) => {
      if (p.kind === 'text' || p.kind === 'thinking') return p;
      toolSeq++;
      const id = p.id ?? (format === 'anthropic' ? `toolu_fake_${toolSeq}` : `call_fake_${toolSeq}`);
      const args = typeof p.input === 'string' ? p.input : JSON.stringify(p.input ?? {});
      return { kind: 'tool' as const, id, name: p.name, args, input: p.input };
    });
    const chars = parts.reduce((n, p) => n + (p.kind === 'tool' ? p.args.length + p.name.length : p.text.length), 0);
    const u = r.usageSpec;
    return {
      parts,
      usage: {
        input: u.input ?? 100,
        output: u.output ?? Math.max(1, Math.ceil(chars / 4)),
        cacheRead: u.cacheRead ?? 0,
        cacheWrite: u.cacheWrite ?? 0,
      },
      model: typeof body?.model === 'string' ? body.model : 'fake-model',
      truncated: r.isTruncated,
      ...(r.searchSpec && format === 'anthropic' ? { search: { ...r.searchSpec, id: `srvtoolu_fake_${++toolSeq}` } } : {}),
    };
  };

  const answerRecord = (kind: AnswerRecord['kind'], status: number, rendered?: Rendered): AnswerRecord => ({
    kind,
    status,
    ...(rendered
      ? {
          text: rendered.parts
            .filter((p) => p.kind === 'text')
            .map((p) => (p as { text: string }).text)
            .join(''),
          toolCalls: rendered.parts
            .filter((p): p is { kind: 'tool' } & ResolvedTool => p.kind === 'tool')
            .map((t) => ({ id: t.id, name: t.name, input: t.input })),
        }
      : {}),
  });

  const alive = (res: http.ServerResponse) => !closed && !res.destroyed && !res.writableEnded;

  const writeEvents = async (res: http.ServerResponse, events: SseEvent[], intervalMs: number): Promise<boolean> => {
    for (const e of events) {
      if (!alive(res)) return false;
      res.write(encodeSse(e));
      if (intervalMs > 0) await sleep(intervalMs);
      else await tick();
    }
    return alive(res);
  };

  const sseHeaders = (format: WireFormat, n: number): http.OutgoingHttpHeaders => ({
    'content-type': format === 'ollama' ? 'application/x-ndjson' : 'text/event-stream; charset=utf-8',
    'cache-control': 'no-cache',
    connection: 'keep-alive',
    ...(format === 'anthropic' ? { 'request-id': `req_fake_${n}` } : { 'x-request-id': `req_fake_${n}` }),
  });

  const sendJson = (res: http.ServerResponse, status: number, body: unknown, headers: http.OutgoingHttpHeaders = {}) => {
    const text = JSON.stringify(body);
    const reason = http.STATUS_CODES[status] ?? (status === 529 ? 'Overloaded' : 'Error');
    res.writeHead(status, reason, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text), ...headers });
    res.end(text);
  };

  /** Where a partial answer stops: explicit `after`, else half of the content events (≥ 1). */
  const cutPoint = (events: SseEvent[], after: number | undefined): number => {
    if (after !== undefined) return Math.max(0, Math.min(after, events.length));
    const contentIdx = events.flatMap((e, i) => (e.content ? [i] : []));
    if (contentIdx.length === 0) return Math.min(1, events.length);
    return contentIdx[Math.max(0, Math.ceil(contentIdx.length / 2) - 1)] + 1;
  };

  const eventsFor = (format: WireFormat, rendered: Rendered, body: Json, n: number): SseEvent[] => {
    if (format === 'gemini') return geminiStream(rendered);
    if (format === 'ollama') return ollamaStream(rendered);
    if (format === 'anthropic') return anthropicStream(rendered, `msg_fake_${n}`);
    if (format === 'openai-chat') return chatStream(rendered, `chatcmpl-fake${n}`, body?.stream_options?.include_usage === true);
    return responsesStream(rendered, `resp_fake${n}`);
  };

  const jsonFor = (format: WireFormat, rendered: Rendered, n: number): unknown => {
    if (format === 'gemini') return geminiJson(rendered);
    if (format === 'ollama') return ollamaJson(rendered);
    if (format === 'anthropic') return anthropicJson(rendered, `msg_fake_${n}`);
    if (format === 'openai-chat') return chatJson(rendered, `chatcmpl-fake${n}`);
    const respId = `resp_fake${n}`;
    return responseObject(
      rendered,
      respId,
      Math.floor(Date.now() / 1000),
      rendered.truncated ? 'incomplete' : 'completed',
      responsesOutput(rendered, (i, kind) => `${kind}_${respId.slice(5)}_${i}`),
    );
  };

  /** Destroys the socket a moment after the last write, so the client has received what was sent. */
  const destroyAfterFlush = async (res: http.ServerResponse) => {
    await sleep(20);
    res.socket?.destroy();
    res.destroy();
  };

  const resolveStep = async (req: RecordedRequest): Promise<Exclude<Step, StepFn> | undefined> => {
    let step: Step | undefined;
    if (hook) step = await hook(req, model);
    if (step === undefined) step = steps.shift();
    for (let depth = 0; typeof step === 'function'; depth++) {
      if (depth > 10) throw new Error('fake model: step functions nested more than 10 deep');
      step = await step(req, model);
    }
    return step;
  };

  /** Ollama's `/api/show` and the OpenAI-compatible `/v1/models`, as those servers answer them. */
  const answerProbe = (req: RecordedRequest, res: http.ServerResponse) => {
    if (infos.length === 0) {
      // No models declared: an unknown path, answered as before.
      req.answer = { kind: 'not-found', status: 404 };
      sendJson(res, 404, {
        error: {
          type: 'not_found_error',
          message: `fake model: no endpoint ${req.method} ${req.path} (use /v1/messages, /v1/chat/completions or /v1/responses)`,
        },
      });
      return;
    }
    req.answer = { kind: 'model-info', status: 200 };
    if (req.path === '/api/show') {
      const name = typeof req.body?.model === 'string' ? req.body.model : req.body?.name;
      const info = infos.find((m) => m.id === name || `${m.id}:latest` === name || m.id === `${name}:latest`);
      if (!info) {
        req.answer = { kind: 'model-info', status: 404 };
        sendJson(res, 404, { error: `model '${name}' not found` });
        return;
      }
      sendJson(res, 200, {
        modelfile: `FROM ${info.id}`,
        parameters: info.numCtx !== undefined ? `num_ctx                        ${info.numCtx}` : '',
        template: '{{ .Prompt }}',
        details: { format: 'gguf', family: 'fake', parameter_size: '7B', quantization_level: 'Q4_K_M' },
        model_info: {
          'general.architecture': 'fake',
          'general.parameter_count': 7_000_000_000,
          ...(info.contextLength !== undefined ? { 'fake.context_length': info.contextLength } : {}),
        },
        capabilities: info.capabilities ?? ['completion', 'tools'],
      });
      return;
    }
    sendJson(res, 200, {
      object: 'list',
      data: infos.map((m) => ({
        id: m.id,
        object: 'model',
        created: 1_700_000_000,
        owned_by: 'fake',
        ...(m.contextLength !== undefined ? { context_length: m.contextLength } : {}),
      })),
    });
  };

  const handle = async (req: RecordedRequest, res: http.ServerResponse) => {
    const format = req.format;
    if (format === 'unknown') {
      req.answer = { kind: 'not-found', status: 404 };
      sendJson(res, 404, {
        error: {
          type: 'not_found_error',
          message: `fake model: no endpoint ${req.method} ${req.path} (use /v1/messages, /v1/chat/completions or /v1/responses)`,
        },
      });
      return;
    }
    const n = ++msgSeq;
    let step: Exclude<Step, StepFn> | undefined;
    try {
      step = await resolveStep(req);
    } catch (err) {
      req.answer = { kind: 'fail', status: 500 };
      sendJson(res, 500, errorBody(format, 500, `fake model: the step function threw: ${(err as Error)?.message ?? String(err)}`));
      return;
    }
    if (!step) {
      req.answer = { kind: 'exhausted', status: 500 };
      const served = requests.filter((q) => q.index < req.index && q.format !== 'unknown').length;
      sendJson(
        res,
        500,
        errorBody(
          format,
          500,
          `fake model: script exhausted after ${served} requests`,
          format === 'anthropic' ? 'api_error' : 'server_error',
        ),
      );
      return;
    }
    switch (step.kind) {
      case 'fail': {
        req.answer = { kind: 'fail', status: step.status };
        if (step.delay) await sleep(step.delay);
        if (!alive(res)) return;
        const headers: http.OutgoingHttpHeaders = {
          ...(format === 'anthropic' ? { 'request-id': `req_fake_${n}` } : { 'x-request-id': `req_fake_${n}` }),
          ...step.headers,
        };
        if (step.retryAfter !== undefined) headers['retry-after'] = String(step.retryAfter);
        if (step.retryAfterMs !== undefined) headers['retry-after-ms'] = String(step.retryAfterMs);
        if (format === 'anthropic' && step.status === 529) headers['x-should-retry'] = 'true';
        sendJson(res, step.status, step.body !== undefined ? step.body : errorBody(format, step.status, step.message, step.type), headers);
        return;
      }
      case 'hang':
        req.answer = { kind: 'hang', status: 0 };
        parked.add(res);
        res.on('close', () => parked.delete(res));
        return;
      default: {
        const r = step.kind === 'reply' ? step : step.reply;
        const rendered = render(r, format, req.body);
        const kind = step.kind;
        req.answer = answerRecord(kind, 200, rendered);
        if (r.delayMs) await sleep(r.delayMs);
        if (!alive(res)) return;
        if (!req.stream) {
          const text = JSON.stringify(jsonFor(format, rendered, n));
          if (kind === 'reply') {
            sendJson(
              res,
              200,
              JSON.parse(text),
              format === 'anthropic' ? { 'request-id': `req_fake_${n}` } : { 'x-request-id': `req_fake_${n}` },
            );
            return;
          }
          res.writeHead(200, { 'content-type': 'application/json' });
          if (kind === 'malformed') {
            res.end(step.data ?? MALFORMED_DEFAULT);
            return;
          }
          res.write(text.slice(0, Math.floor(text.length / 2)));
          if (kind === 'stall') {
            parked.add(res);
            res.on('close', () => parked.delete(res));
            return;
          }
          if (kind === 'end-early') {
            res.end();
            return;
          }
          await destroyAfterFlush(res);
          return;
        }
        const events = eventsFor(format, rendered, req.body, n);
        res.writeHead(200, sseHeaders(format, n));
        res.flushHeaders();
        if (kind === 'reply') {
          if (await writeEvents(res, events, r.intervalMs)) res.end();
          return;
        }
        if (kind === 'malformed') {
          const good = events.slice(0, Math.max(0, Math.min(step.after ?? 0, events.length)));
          if (await writeEvents(res, [...good, { data: step.data ?? MALFORMED_DEFAULT }], r.intervalMs)) res.end();
          return;
        }
        const at = cutPoint(events, step.after);
        if (!(await writeEvents(res, events.slice(0, at), r.intervalMs))) return;
        if (kind === 'cut') {
          await destroyAfterFlush(res);
        } else if (kind === 'end-early') {
          res.end();
        } else if (kind === 'stall') {
          parked.add(res);
          res.on('close', () => parked.delete(res));
        } else {
          const seq = events.length + 1;
          const last =
            format === 'openai-chat'
              ? [streamErrorEvent(format, seq, step.type, step.message), { data: '[DONE]' }]
              : [streamErrorEvent(format, seq, step.type, step.message)];
          if (await writeEvents(res, last, r.intervalMs)) res.end();
        }
      }
    }
  };

  const onRequest = (httpReq: http.IncomingMessage, res: http.ServerResponse) => {
    const chunks: Buffer[] = [];
    httpReq.on('data', (c: Buffer) => chunks.push(c));
    httpReq.on('end', () => {
      const rawBody = Buffer.concat(chunks).toString('utf8');
      let body: Json;
      if (rawBody !== '') {
        try {
          body = JSON.parse(rawBody);
        } catch {
          body = rawBody;
        }
      }
      const path = (httpReq.url ?? '/').split('?')[0];
      const format = httpReq.method === 'POST' ? formatForPath(path) : 'unknown';
      const probe = (httpReq.method === 'POST' && path === '/api/show') || (httpReq.method === 'GET' && /^(\/v1)?\/models\/?$/.test(path));
      const rec: RecordedRequest = {
        index: probe ? probes.length : requests.length,
        method: httpReq.method ?? 'GET',
        path,
        headers: httpReq.headers,
        body,
        rawBody,
        format,
        // Gemini says it in the path; Ollama streams unless told `stream: false`.
        stream:
          format === 'gemini' ? /:streamGenerateContent$/.test(path) : format === 'ollama' ? body?.stream !== false : body?.stream === true,
      };
      if (probe) {
        probes.push(rec);
        answerProbe(rec, res);
        opts.log?.(summarise(rec));
        return;
      }
      requests.push(rec);
      handle(rec, res)
        .catch((err) => {
          if (!res.headersSent && alive(res))
            sendJson(res, 500, errorBody(format, 500, `fake model: internal error: ${(err as Error)?.message ?? String(err)}`));
          else res.destroy();
        })
        .finally(() => {
          opts.log?.(summarise(rec));
        });
      notifyWaiters();
    });
  };
  const server = opts.tls ? https.createServer({ key: opts.tls.key, cert: opts.tls.cert }, onRequest) : http.createServer(onRequest);
  server.on('connection', (s: Socket) => {
    sockets.add(s);
    s.on('close', () => sockets.delete(s));
  });
  // A client that goes away mid-answer must not crash the test process.
  server.on('clientError', (_err, socket) => socket.destroy());

  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(opts.port ?? 0, opts.host ?? '127.0.0.1', () => {
      server.off('error', reject);
      resolve();
    });
  });
  const port = (server.address() as AddressInfo).port;
  const host = opts.host ?? '127.0.0.1';
  const url = `${opts.tls ? 'https' : 'http'}://${host}:${port}`;

  const model: FakeModel = {
    url,
    port,
    anthropicBaseUrl: url,
    openaiBaseUrl: `${url}/v1`,
    requests,
    probes,
    get remaining() {
      return steps.length;
    },
    script(...more: Step[]) {
      for (const s of more) {
        if (s === undefined || s === null) throw new Error('fake model: script() got an undefined step');
      }
      steps.push(...more);
      return model;
    },
    onRequest(h) {
      hook = h;
      return model;
    },
    models(list) {
      infos = [...list];
      return model;
    },
    reset() {
      steps.length = 0;
      requests.length = 0;
      probes.length = 0;
      hook = undefined;
      toolSeq = 0;
      msgSeq = 0;
      for (const res of parked) res.destroy();
      parked.clear();
      return model;
    },
    waitForRequests(count, timeoutMs = 20_000) {
      if (requests.length >= count) return Promise.resolve(requests);
      return new Promise((resolve, reject) => {
        const w = {
          count,
          resolve: (r: RecordedRequest[]) => {
            clearTimeout(timer);
            resolve(r);
          },
        };
        const timer = setTimeout(() => {
          waiters.splice(waiters.indexOf(w), 1);
          reject(new Error(`fake model: waited ${timeoutMs} ms for ${count} requests, got ${requests.length}`));
        }, timeoutMs);
        waiters.push(w);
      });
    },
    env(provider = 'anthropic'): Record<string, string> {
      const key = 'fake-key';
      switch (provider) {
        case 'openai':
        case 'openai-chat':
          return { OPENAI_BASE_URL: `${url}/v1`, OPENAI_API_KEY: key };
        case 'openai-compatible':
          return { OPENAI_COMPATIBLE_BASE_URL: `${url}/v1`, OPENAI_COMPATIBLE_API_KEY: key };
        case 'google':
          return { GOOGLE_GEMINI_BASE_URL: `${url}/v1beta`, GEMINI_API_KEY: key };
        case 'ollama':
          return { OLLAMA_HOST: url };
        default:
          return { ANTHROPIC_BASE_URL: url, ANTHROPIC_API_KEY: key };
      }
    },
    async close() {
      if (closed) return;
      closed = true;
      for (const res of parked) res.destroy();
      parked.clear();
      const done = new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
      for (const s of sockets) s.destroy();
      await done;
    },
  };
  return model;
}
