import type { LanguageModelV4Message, LanguageModelV4Prompt } from '@ai-sdk/provider';

/**
 * The conversation as one provider's wire may carry it. Our messages keep everything any provider
 * may need back (images in tool results, reasoning with its signature); what a wire cannot take,
 * or forbids, is changed here, at send time only.
 */

/** Chat Completions (OpenAI's, Ollama's and compatible servers') cannot put an image in a tool message. */
const CHAT_WIRES = new Set(['openai-chat', 'openai-compatible', 'ollama']);
/** Reasoning sent back: Anthropic (signed thinking blocks), OpenAI Responses (reasoning items), Gemini (thought signatures), Ollama (`thinking`) take it; Chat Completions has no field for it, and some compatible servers reject `reasoning_content` in a request. */
const NO_REASONING_BACK = new Set(['openai-chat', 'openai-compatible']);

type ToolMessage = Extract<LanguageModelV4Message, { role: 'tool' }>;
type Content = Extract<ToolMessage['content'][number], { type: 'tool-result' }>['output'];
type FilePart = Extract<Extract<Content, { type: 'content' }>['value'][number], { type: 'file' }>;

/**
 * On chat wires a tool result's images move to a user message right after the tool messages
 * ("the images the tool calls above returned"), so the model still sees them; the tool result keeps
 * its text. Other wires carry them inside the tool result.
 */
export function imagesOutOfToolResults(prompt: LanguageModelV4Prompt, provider: string): LanguageModelV4Prompt {
  if (!CHAT_WIRES.has(provider)) return prompt;
  const out: LanguageModelV4Prompt = [];
  for (const m of prompt) {
    if (m.role !== 'tool') {
      out.push(m);
      continue;
    }
    const images: Array<{ name: string; file: FilePart }> = [];
    const content = m.content.map((p) => {
      if (p.type !== 'tool-result' || p.output.type !== 'content') return p;
      const text = p.output.value.flatMap((v) => (v.type === 'text' ? [v.text] : [])).join('\n');
      for (const v of p.output.value) if (v.type === 'file') images.push({ name: p.toolName, file: v });
      return { ...p, output: { type: 'text' as const, value: text } };
    });
    out.push({ ...m, content });
    if (images.length) {
      out.push({
        role: 'user',
        content: [
          {
            type: 'text',
            text: `The image${images.length === 1 ? '' : 's'} returned by the ${[...new Set(images.map((i) => i.name))].join(', ')} call${images.length === 1 ? '' : 's'} above:`,
          },
          ...images.map(({ file }) => ({ type: 'file' as const, data: file.data, mediaType: file.mediaType })),
        ],
      });
    }
  }
  return out;
}

/** The `providerOptions` key under which a reasoning part records the provider that produced it (no provider reads it). */
const REASONING_ORIGIN = 'assistantOrigin';

type AssistantMessage = Extract<LanguageModelV4Message, { role: 'assistant' }>;

/** Marks the reasoning parts of an assistant message with the provider that produced them (in place). */
export function markReasoningOrigin(m: LanguageModelV4Message, provider: string): void {
  if (m.role !== 'assistant') return;
  for (const p of m.content) if (p.type === 'reasoning') p.providerOptions = { ...p.providerOptions, [REASONING_ORIGIN]: { provider } };
}

/** Which provider produced a reasoning part: its mark, else the provider whose metadata it carries; undefined when neither says. */
export function reasoningOrigin(p: Extract<AssistantMessage['content'][number], { type: 'reasoning' }>): string | undefined {
  const o = p.providerOptions;
  const marked = o?.[REASONING_ORIGIN]?.provider;
  if (typeof marked === 'string') return marked;
  return ['anthropic', 'openai', 'google'].find((k) => o?.[k] !== undefined);
}

/**
 * Reasoning parts are left out of what goes to a wire that cannot take them back, and out of what
 * goes to another provider than the one that produced them (a `/model` switch mid-session): one
 * provider's signed thinking is meaningless, or refused, at another's.
 */
export function withoutForbiddenReasoning(prompt: LanguageModelV4Prompt, provider: string): LanguageModelV4Prompt {
  const none = NO_REASONING_BACK.has(provider);
  const foreign = (p: AssistantMessage['content'][number]) =>
    p.type === 'reasoning' && (none || (reasoningOrigin(p) ?? provider) !== provider);
  if (!prompt.some((m) => m.role === 'assistant' && m.content.some(foreign))) return prompt;
  return prompt.map((m) =>
    m.role === 'assistant' && m.content.some(foreign) ? { ...m, content: m.content.filter((p) => !foreign(p)) } : m,
  );
}

/**
 * For a model that takes no images, the images of earlier turns (a resumed session, another model
 * before a switch) become a note, so the request is not refused for them.
 */
export function withoutImages(prompt: LanguageModelV4Prompt): LanguageModelV4Prompt {
  const note = { type: 'text' as const, text: '[an image was here; this model does not take images]' };
  return prompt.map((m) => {
    if (m.role === 'user' && m.content.some((p) => p.type === 'file'))
      return { ...m, content: m.content.map((p) => (p.type === 'file' ? note : p)) };
    if (m.role !== 'tool') return m;
    return {
      ...m,
      content: m.content.map((p) =>
        p.type === 'tool-result' && p.output.type === 'content'
          ? { ...p, output: { ...p.output, value: p.output.value.map((v) => (v.type === 'file' ? note : v)) } }
          : p,
      ),
    };
  });
}
