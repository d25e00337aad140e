import type { Conversation } from '../session/conversation.ts';
import type { ToolNote } from '../session/transcript.ts';
import type { Message, Usage } from '../providers/types.ts';
import { markReasoningOrigin } from '../providers/wire-prompt.ts';
import type { EventSink, RunOutcome } from './events.ts';
import { runAgent } from './loop.ts';
import type { SessionTools } from './session-tools.ts';
import type { ToolRunContext } from './tool-call.ts';
import { asksForVerification, detectTestCommand, Verifier } from './verify.ts';

type LoopOptions = Parameters<typeof runAgent>[1];

/** One prompt's run as the session sets it up: the loop's options, less what the turn itself provides. */
interface TurnOptions extends Omit<LoopOptions, 'toolSpecs' | 'messages' | 'append' | 'run' | 'onStop'> {
  text: string;
  conversation: Conversation;
  tools: SessionTools;
  run: Omit<ToolRunContext, 'tools'>;
  /** What the transcript keeps beside a message (how the screen showed it). */
  notes(message: Message): { shown?: string; tools?: Record<string, ToolNote> };
  /** After each message is appended. */
  appended(message: Message, usage?: Usage): void;
  /** The Stop hooks' seam, after verification. */
  onStop(signal: AbortSignal, lastText: string): Promise<string | undefined>;
  /** `--verify` or settings `verify`; else a prompt that asks to run the tests gets the project's test command (SPEC §8). */
  verify?: string;
  cwd: string;
  env: Readonly<Record<string, string>>;
  /** No verification now (Plan Mode, where nothing but plan.md can change). */
  skipVerify(): boolean;
}

/**
 * Runs the loop for one prompt: the tools offered follow the MCP servers during the run,
 * each message goes into the conversation, and verification runs before the Stop hooks see an
 * answer (SPEC §8). Never throws for model or tool failures.
 */
export async function runTurn(o: TurnOptions): Promise<RunOutcome> {
  const { text, conversation, tools, run, notes, appended, verify, cwd, env, skipVerify, onStop, ...loop } = o;
  const command = verify ?? (asksForVerification(text) ? detectTestCommand(cwd, text) : undefined);
  const verifier = command ? new Verifier(command, { cwd, env: { ...process.env, ...env }, emit: run.emit, skip: skipVerify }) : undefined;
  const emit: EventSink = verifier
    ? (ev) => {
        verifier.observe(ev);
        run.emit(ev);
      }
    : run.emit;
  const offered = tools.forRun();
  let outcome: RunOutcome;
  try {
    outcome = await runAgent(text, {
      ...loop,
      toolSpecs: offered.specs,
      messages: conversation.messages,
      append: (message, usage) => {
        markReasoningOrigin(message, o.model.provider); // never sent to another provider after a /model switch
        conversation.append(message, usage, notes(message));
        appended(message, usage);
      },
      settled: (result) => conversation.settled(result),
      run: { ...run, tools: offered.map, emit },
      // Verification first: a failure goes back to the model before Stop hooks see an answer.
      onStop: async (sig, lastText) => (await verifier?.onStop(sig)) ?? onStop(sig, lastText),
    });
  } finally {
    offered.unfollow?.();
  }
  // An honest end: a run that stops with verification still failing did not succeed.
  if (verifier?.failure !== undefined && (outcome.status === 'done' || outcome.status === 'stopped'))
    return { ...outcome, status: 'verify-failed', error: verifier.failure };
  if (verifier?.lastFailure !== undefined && outcome.status === 'max-turns')
    return { ...outcome, error: `${outcome.error} Verification was still failing: ${verifier.lastFailure}` };
  return outcome;
}
