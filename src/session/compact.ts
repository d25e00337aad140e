import type { Message, ModelHandle, Usage } from '../providers/types.ts';

import instructions from './compact.md';

/** The first message of a compacted conversation. */
export const SUMMARY_PREFIX = 'This session continues an earlier conversation that was compacted. Summary of it:\n\n';

/** What an image costs in the context, about (a 1568-px picture is 1,600–3,300 tokens on Anthropic, 765–1,105 on OpenAI). */
export const IMAGE_TOKENS = 1_600;

/** A tool result's output as text: the text, and `[image]` for each picture (never its base64). */
function outputText(o: { type: string; value?: unknown }): string {
  if (o.type === 'content' && Array.isArray(o.value)) {
    return o.value
      .map((v: { type?: string; text?: string }) => (v.type === 'text' ? (v.text ?? '') : `[${v.type === 'file' ? 'image' : v.type}]`))
      .join('\n');
  }
  return typeof o.value === 'string' ? o.value : JSON.stringify(o.value ?? '');
}

function clip(s: string, n: number): string {
  return s.length > n ? `${s.slice(0, n)}\n[… ${s.length - n} characters left out]` : s;
}

/** The conversation as plain text for the summariser; long tool outputs are clipped. */
function conversationText(messages: readonly Message[]): string {
  const out: string[] = [];
  for (const m of messages) {
    if (m.role === 'system') continue;
    for (const p of m.content) {
      if (p.type === 'text') out.push(`${m.role === 'user' ? 'USER' : 'ASSISTANT'}: ${p.text}`);
      else if (p.type === 'file') out.push(`${m.role === 'user' ? 'USER' : 'ASSISTANT'}: [an image]`);
      else if (p.type === 'tool-call') out.push(`ASSISTANT called ${p.toolName} ${clip(JSON.stringify(p.input), 2000)}`);
      else if (p.type === 'tool-result') {
        const o = p.output as { type: string; value?: unknown };
        out.push(`RESULT of ${p.toolName}${o.type.startsWith('error') ? ' (error)' : ''}: ${clip(outputText(o), 4000)}`);
      }
    }
  }
  return out.join('\n\n');
}

type CompactResult = { ok: true; summary: string; usage: Usage } | { ok: false; error: string };

/**
 * Asks the model for a summary of the conversation in the sections of compact.md (SPEC §6): the
 * user's instructions and corrections, files changed, decisions and open tasks each get their own.
 * `ASSISTANT.md` is not part of the messages (it lives in the system prompt), so it is never
 * summarised. Never throws.
 */
export async function summarise(
  model: ModelHandle,
  messages: readonly Message[],
  extra: string | undefined,
  signal: AbortSignal,
): Promise<CompactResult> {
  const request = {
    system: instructions.trim(),
    tools: [],
    // A summary needs no extended thinking, whatever the session's setting: it costs time and tokens.
    thinking: 'off' as const,
    messages: [
      {
        role: 'user' as const,
        content: [
          {
            type: 'text' as const,
            text: `${extra ? `Additional instructions for this summary: ${extra}\n\n` : ''}The conversation:\n\n${conversationText(messages)}`,
          },
        ],
      },
    ],
  };
  let text = '';
  for await (const ev of model.stream(request, signal)) {
    if (ev.type === 'text') text += ev.delta;
    if (ev.type === 'retry') text = '';
    if (ev.type === 'error') return { ok: false, error: ev.error.message };
    if (ev.type === 'aborted') return { ok: false, error: 'interrupted' };
    if (ev.type === 'finish')
      return text.trim()
        ? { ok: true, summary: text.trim(), usage: ev.usage }
        : { ok: false, error: 'the model returned an empty summary' };
  }
  return { ok: false, error: 'the summary stream ended early' };
}

export function summaryMessage(summary: string): Message {
  return { role: 'user', content: [{ type: 'text', text: `${SUMMARY_PREFIX}${summary}` }] };
}

/** Each message's JSON length and images, worked out once: a message is never changed once added. */
const measured = new WeakMap<Message, { parts: number; chars: number; images: number }>();

function measure(m: Message): { chars: number; images: number } {
  const known = measured.get(m);
  if (known && known.parts === m.content.length) return known;
  let images = 0;
  // An image counts as what a model charges for it, not as its base64 text.
  const chars = JSON.stringify(m, (k, v) => (k === 'data' && typeof v === 'string' && v.length > 512 ? (images++, '') : v)).length;
  const entry = { parts: m.content.length, chars, images };
  measured.set(m, entry);
  return entry;
}

/**
 * Rough token count of a conversation (4 characters a token), for the auto-compaction check. Each
 * message is measured once (the check runs every turn: measuring the whole history again each
 * time made a long session allocate its history anew per turn).
 */
export function estimateTokens(system: string, messages: readonly Message[]): number {
  let chars = system.length + 2 + Math.max(0, messages.length - 1);
  let images = 0;
  for (const m of messages) {
    const e = measure(m);
    chars += e.chars;
    images += e.images;
  }
  return Math.ceil(chars / 4) + images * IMAGE_TOKENS;
}

function tokensText(n: number): string {
  return n >= 1000 ? `${Math.round(n / 1000)}k tokens` : `${n} tokens`;
}

/**
 * What fills the context, biggest first, for the message that stops a compaction loop (SPEC
 * §11.14): `system` (what every request carries: the system prompt and tool definitions) and the largest parts of the conversation (a tool call's input, a
 * tool's result, a prompt), each named with its tool and file where it has one.
 */
export function contextReport(system: string, messages: readonly Message[], top = 3): string {
  const paths = new Map<string, string>();
  const items: Array<{ what: string; tokens: number }> = [];
  const size = (s: string) => Math.ceil(s.length / 4);
  for (const m of messages) {
    if (m.role === 'system') continue;
    for (const p of m.content) {
      if (p.type === 'text') {
        const what =
          m.role === 'user'
            ? p.text.startsWith(SUMMARY_PREFIX)
              ? 'the summary of the earlier conversation'
              : 'a prompt'
            : "the model's text";
        items.push({ what, tokens: size(p.text) });
      } else if (p.type === 'tool-call') {
        const input = p.input as { file_path?: unknown; path?: unknown; command?: unknown } | undefined;
        const target = input?.file_path ?? input?.path ?? input?.command;
        const named = typeof target === 'string' ? ` (${target.length > 60 ? `${target.slice(0, 60)}…` : target})` : '';
        paths.set(p.toolCallId, named);
        items.push({ what: `a ${p.toolName} call's input${named}`, tokens: size(JSON.stringify(p.input ?? '')) });
      } else if (p.type === 'tool-result') {
        const o = p.output as { type: string; value?: unknown };
        const images =
          o.type === 'content' && Array.isArray(o.value) ? o.value.filter((v: { type?: string }) => v.type === 'file').length : 0;
        items.push({
          what: `the result of ${p.toolName}${paths.get(p.toolCallId) ?? ''}`,
          tokens: size(outputText(o)) + images * IMAGE_TOKENS,
        });
      }
    }
  }
  items.sort((a, b) => b.tokens - a.tokens);
  return [{ what: 'the system prompt (instructions, tool definitions, ASSISTANT.md)', tokens: size(system) }, ...items.slice(0, top)]
    .sort((a, b) => b.tokens - a.tokens)
    .map((i) => `${i.what}: ${tokensText(i.tokens)}`)
    .join('; ');
}
