import type { LanguageModelV4ReasoningPart } from '@ai-sdk/provider';
import type { StreamEvent } from '../providers/types.ts';

type ReasoningEvent = Extract<StreamEvent, { type: 'reasoning' }>;

/**
 * The reasoning of one model response, as the conversation keeps it: one part per block, with the
 * provider metadata that came with the block (Anthropic's signature, OpenAI's item id, Gemini's
 * thought signature) as its `providerOptions`, so the provider that needs it gets it back next turn
 * (providers/wire-prompt.ts leaves it out where a wire forbids it).
 */
export class Reasoning {
  private readonly blocks = new Map<string, { text: string; meta?: Record<string, Record<string, unknown>> }>();

  add(ev: ReasoningEvent): void {
    const key = ev.id ?? '';
    const b = this.blocks.get(key) ?? { text: '' };
    b.text += ev.delta;
    if (ev.meta) {
      b.meta ??= {};
      for (const [provider, fields] of Object.entries(ev.meta)) b.meta[provider] = { ...b.meta[provider], ...fields };
    }
    this.blocks.set(key, b);
  }

  parts(): LanguageModelV4ReasoningPart[] {
    return [...this.blocks.values()]
      .filter((b) => b.text || b.meta)
      .map((b) => ({
        type: 'reasoning',
        text: b.text,
        ...(b.meta ? { providerOptions: b.meta as LanguageModelV4ReasoningPart['providerOptions'] } : {}),
      }));
  }
}
