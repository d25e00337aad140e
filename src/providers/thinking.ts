import type { SharedV4ProviderOptions } from '@ai-sdk/provider';
import type { ModelFacts, ThinkingLevel } from './types.ts';

/**
 * The thinking setting as each provider's request asks for it. The AI SDK's own `reasoning` call
 * option is the base (it knows which models take a budget, an effort or an adaptive mode); on top:
 *  - Anthropic: `thinking.budget_tokens` of 4k / 10k / 32k (Claude Code's "think", "think hard",
 *    "ultrathink"); models that take no budget get adaptive thinking with that effort instead.
 *  - OpenAI: `reasoning.effort` (Responses also asks for a summary, the only reasoning it shows).
 *  - Google: `thinkingConfig` (a budget, or Gemini 3's level) with `includeThoughts`.
 *  - Ollama: `think`, only for models whose /api/show lists `thinking` (others refuse the field).
 *  - OpenAI-compatible servers: `reasoning_effort`.
 * `off` asks for the least the model allows (some reasoning models always reason); unset: the provider's default.
 */
interface ThinkingCall {
  reasoning?: 'none' | 'low' | 'medium' | 'high';
  providerOptions?: SharedV4ProviderOptions;
}

const ANTHROPIC_BUDGETS = { low: 4_000, medium: 10_000, high: 31_999 } as const;

export function thinkingCall(provider: string, level: ThinkingLevel | undefined, facts: ModelFacts = {}): ThinkingCall {
  if (!level) return {};
  const on = level !== 'off';
  const reasoning = on ? level : 'none';
  switch (provider) {
    case 'anthropic':
      // Off is Anthropic's own default: nothing to send.
      return on
        ? { reasoning, providerOptions: { anthropic: { thinking: { type: 'enabled', budgetTokens: ANTHROPIC_BUDGETS[level] } } } }
        : {};
    case 'openai':
      return on ? { reasoning, providerOptions: { openai: { reasoningSummary: 'auto' } } } : { reasoning };
    case 'openai-chat':
      return { reasoning };
    case 'google':
      return on ? { reasoning, providerOptions: { google: { thinkingConfig: { includeThoughts: true } } } } : { reasoning };
    case 'ollama':
      return facts.reasoning ? { providerOptions: { ollama: { think: on } } } : {};
    case 'openai-compatible':
      return on ? { reasoning } : {};
    default:
      return {};
  }
}
