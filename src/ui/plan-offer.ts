import { existsSync, readFileSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Choice } from './state.ts';

/** What the offer needs of the controller (kept apart so the two files do not import each other). */
export interface PlanHost {
  readonly setup: { cwd: string };
  choose(title: string, options: Array<Choice<string>>, body?: string, o?: { markdown?: boolean }): Promise<string | undefined>;
  setMode(mode: 'auto-accept' | 'normal'): void;
  prompt(text: string, o: { shown: string }): Promise<unknown>;
  notice(tone: 'info', text: string): void;
}

/** Lines of plan.md shown in the question; the rest is named, not shown. */
const SHOWN = 24;

/**
 * Plan Mode wrote plan.md: the plan, rendered as Markdown, and the question: execute it (leaving
 * Plan Mode for Auto-Accept or Normal) or keep planning (SPEC §5).
 */
export async function offerPlan(ctrl: PlanHost): Promise<void> {
  const file = resolve(ctrl.setup.cwd, 'plan.md');
  const plan = existsSync(file) ? readFileSync(file, 'utf8').trim().split('\n') : [];
  const body =
    plan.length > SHOWN ? [...plan.slice(0, SHOWN), '', `*… ${plan.length - SHOWN} more lines in plan.md*`].join('\n') : plan.join('\n');
  const v = await ctrl.choose(
    'The plan is in plan.md. Would you like to proceed?',
    [
      { label: 'Yes, and auto-accept edits', value: 'auto-accept' },
      { label: 'Yes, and manually approve edits', value: 'normal' },
      { label: 'No, keep planning', value: 'plan' },
    ],
    body,
    { markdown: true },
  );
  if (v === 'auto-accept' || v === 'normal') {
    ctrl.setMode(v);
    await ctrl.prompt('Execute the plan in plan.md, step by step.', { shown: 'Execute the plan in plan.md' });
    return;
  }
  // "No" or Esc: say so, as Claude Code does, and wait for what to change.
  ctrl.notice('info', 'Kept planning (still in plan mode): tell assistant what to change in the plan.');
}
