import { costUsd } from '../providers/catalogue.ts';
import { addUsage, emptyUsage, type Usage } from '../providers/types.ts';
import type { AgentEvent } from './events.ts';
import type { Session } from './session.ts';

/**
 * What an interactive session has cost, shown while it runs: the earlier runs of a resumed session
 * (other processes), the session's own, and the running prompt's tokens as they stream in (its
 * subagents' included, SPEC §14), before the session counts them when the prompt ends.
 */
export class RunMeter {
  private run: Usage = emptyUsage();
  private running = false;

  constructor(readonly earlier: { costUsd: number; usage: Usage } = { costUsd: 0, usage: emptyUsage() }) {}

  /** A prompt (or /compact) runs: its tokens count in the live cost. */
  begin(): void {
    this.running = true;
  }
  /** It ended: the session has counted its tokens. */
  end(): void {
    this.running = false;
  }
  /** A new prompt: its tokens are counted from zero. */
  newPrompt(): void {
    this.run = emptyUsage();
  }

  /** Counts an event's tokens; true when it carried some (the cost shown changed). */
  observe(ev: AgentEvent): boolean {
    if (ev.type === 'message' && ev.usage) {
      this.run = addUsage(this.run, ev.usage);
      return true;
    }
    if (ev.type === 'subagent' && ev.event.type === 'message' && ev.event.usage) this.run = addUsage(this.run, ev.event.usage);
    return false;
  }

  /** What the session has cost so far, its earlier runs included (not the running prompt). */
  totalCostUsd(session: Session): number {
    return this.earlier.costUsd + session.costUsd;
  }
  /** The cost so far with the running prompt's tokens at the model's price. */
  liveCostUsd(session: Session): number {
    return this.totalCostUsd(session) + (this.running ? costUsd(session.model.facts?.price, this.run) : 0);
  }
  /** The tokens so far, the earlier runs' included (`/cost`). */
  totalUsage(session: Session): Usage {
    return addUsage(this.earlier.usage, session.usage);
  }
}
