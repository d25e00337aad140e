import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type Usage } from '../providers/types.ts';

type Price = Parameters<typeof costUsd>[0];

/** What a session has used (prompts, compactions, subagents), and what it cost at the prices of the models that used it. */
export class Spend {
  private total = emptyUsage();
  /** The usage before the last `/model` switch, priced at the earlier models' prices. */
  private before = { usd: 0, usage: emptyUsage() };

  get usage(): Usage {
    return this.total;
  }
  add(u: Usage): void {
    this.total = addUsage(this.total, u);
  }

  /** The cost so far, the usage since the last switch at `price` (the current model's). */
  costUsd(price: Price): number {
    return this.before.usd + costUsd(price, usageSince(this.total, this.before.usage));
  }

  /** The model changes from one at `price`: what was used so far keeps that price. */
  switchFrom(price: Price): void {
    this.before = { usd: this.costUsd(price), usage: { ...this.total } };
  }
}

/** Usage `u` minus the part of it counted in `base`. */
function usageSince(u: Usage, base: Usage): Usage {
  return {
    inputTokens: u.inputTokens - base.inputTokens,
    outputTokens: u.outputTokens - base.outputTokens,
    cacheReadTokens: u.cacheReadTokens - base.cacheReadTokens,
    cacheWriteTokens: u.cacheWriteTokens - base.cacheWriteTokens,
  };
}
