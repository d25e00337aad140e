/**
 * The fake model server's Google Gemini and Ollama wire formats (model-server.ts has the others):
 *   - Gemini  POST /v1beta/models/MODEL:streamGenerateContent?alt=sse  (SSE, `data:` lines only)
 *             POST /v1beta/models/MODEL:generateContent                (one JSON object)
 *   - Ollama  POST /api/chat  (newline-delimited JSON while `stream` is not false; else one object)
 * Shapes follow the servers' own answers, as the AI SDK's Google provider and ollama-ai-provider-v2 read them.
 */
import type { Rendered, ResolvedTool, SseEvent } from './model-server.ts';
import { textChunks } from './model-server.ts';

const toolArgs = (t: ResolvedTool): unknown => {
  if (typeof t.input !== 'string') return t.input ?? {};
  try {
    return JSON.parse(t.input);
  } catch {
    return {};
  }
};

// ───────────────────────────── Gemini ─────────────────────────────

/** Gemini 3 signs every function call; the signature must come back with it next turn. */
export const geminiSignature = (t: ResolvedTool) => `sig-${t.id}`;

function geminiUsage(r: Rendered) {
  const u = r.usage;
  return {
    promptTokenCount: u.input,
    candidatesTokenCount: u.output,
    totalTokenCount: u.input + u.output,
    ...(u.cacheRead ? { cachedContentTokenCount: u.cacheRead } : {}),
  };
}

const geminiFinish = (r: Rendered) => (r.truncated ? 'MAX_TOKENS' : 'STOP');

function geminiParts(r: Rendered): unknown[] {
  return r.parts.map((p) =>
    p.kind === 'thinking'
      ? { text: p.text, thought: true, ...(p.signature ? { thoughtSignature: p.signature } : {}) }
      : p.kind === 'text'
        ? { text: p.text }
        : { functionCall: { name: p.name, args: toolArgs(p) }, thoughtSignature: geminiSignature(p) },
  );
}

export function geminiStream(r: Rendered): SseEvent[] {
  const chunk = (parts: unknown[], content = false): SseEvent => ({
    data: { candidates: [{ content: { role: 'model', parts }, index: 0 }], modelVersion: r.model },
    content,
  });
  const ev: SseEvent[] = [];
  for (const p of r.parts) {
    if (p.kind === 'thinking') {
      for (const c of textChunks(p.text)) ev.push(chunk([{ text: c, thought: true }], true));
      if (p.signature) ev.push(chunk([{ text: '', thought: true, thoughtSignature: p.signature }]));
    } else if (p.kind === 'text') {
      for (const c of textChunks(p.text)) ev.push(chunk([{ text: c }], true));
    } else {
      ev.push(chunk([{ functionCall: { name: p.name, args: toolArgs(p) }, thoughtSignature: geminiSignature(p) }], true));
    }
  }
  ev.push({
    data: {
      candidates: [{ content: { role: 'model', parts: [{ text: '' }] }, finishReason: geminiFinish(r), index: 0 }],
      usageMetadata: geminiUsage(r),
      modelVersion: r.model,
    },
  });
  return ev;
}

export function geminiJson(r: Rendered): unknown {
  return {
    candidates: [{ content: { role: 'model', parts: geminiParts(r) }, finishReason: geminiFinish(r), index: 0 }],
    usageMetadata: geminiUsage(r),
    modelVersion: r.model,
  };
}

const GEMINI_STATUS: Record<number, string> = {
  400: 'INVALID_ARGUMENT',
  401: 'UNAUTHENTICATED',
  403: 'PERMISSION_DENIED',
  404: 'NOT_FOUND',
  429: 'RESOURCE_EXHAUSTED',
  500: 'INTERNAL',
  503: 'UNAVAILABLE',
  504: 'DEADLINE_EXCEEDED',
};

export function geminiError(status: number, message: string, type?: string): unknown {
  return { error: { code: status, message, status: type ?? GEMINI_STATUS[status] ?? (status >= 500 ? 'INTERNAL' : 'INVALID_ARGUMENT') } };
}

// ───────────────────────────── Ollama ─────────────────────────────

const ollamaLine = (r: Rendered, message: Record<string, unknown>, content = false): SseEvent => ({
  line: true,
  content,
  data: { model: r.model, created_at: new Date().toISOString(), message: { role: 'assistant', content: '', ...message }, done: false },
});

function ollamaDone(r: Rendered, message: Record<string, unknown> = {}) {
  return {
    model: r.model,
    created_at: new Date().toISOString(),
    message: { role: 'assistant', content: '', ...message },
    done: true,
    done_reason: r.truncated ? 'length' : 'stop',
    total_duration: 1_000_000,
    load_duration: 1000,
    prompt_eval_count: r.usage.input,
    eval_count: r.usage.output,
  };
}

const ollamaCall = (t: ResolvedTool) => ({ id: t.id, function: { index: 0, name: t.name, arguments: toolArgs(t) } });

export function ollamaStream(r: Rendered): SseEvent[] {
  const ev: SseEvent[] = [];
  for (const p of r.parts) {
    if (p.kind === 'thinking') for (const c of textChunks(p.text)) ev.push(ollamaLine(r, { thinking: c }, true));
    else if (p.kind === 'text') for (const c of textChunks(p.text)) ev.push(ollamaLine(r, { content: c }, true));
    else ev.push(ollamaLine(r, { tool_calls: [ollamaCall(p)] }, true));
  }
  ev.push({ line: true, data: ollamaDone(r) });
  return ev;
}

export function ollamaJson(r: Rendered): unknown {
  const text = r.parts
    .filter((p) => p.kind === 'text')
    .map((p) => (p as { text: string }).text)
    .join('');
  const thinking = r.parts
    .filter((p) => p.kind === 'thinking')
    .map((p) => (p as { text: string }).text)
    .join('');
  const calls = r.parts.filter((p): p is { kind: 'tool' } & ResolvedTool => p.kind === 'tool').map(ollamaCall);
  return ollamaDone(r, { content: text, ...(thinking ? { thinking } : {}), ...(calls.length ? { tool_calls: calls } : {}) });
}

/** Ollama answers errors as `{"error": "…"}`, a plain string. */
export const ollamaError = (message: string): unknown => ({ error: message });
