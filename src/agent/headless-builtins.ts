import { dispatch, type Dispatch, type DispatchContext, type UiAction } from '../commands/dispatch.ts';
import { modelFactsText } from '../providers/facts-text.ts';
import { resolveModel } from '../providers/resolve.ts';
import { readEntries } from '../session/transcript.ts';
import { resolveOptions, type Setup } from './setup.ts';

/** `/cost`: the totals of the continued session, from its transcript. */
function sessionCost(path: string | undefined): string {
  if (!path) return 'No cost yet: this is a new conversation (continue one with -c to see its cost).';
  let cost = 0;
  let input = 0;
  let output = 0;
  let turns = 0;
  for (const e of readEntries(path)) {
    if (e.type !== 'result') continue;
    cost += e.costUsd;
    input += e.usage.inputTokens;
    output += e.usage.outputTokens;
    turns += e.turns;
  }
  return `Total cost: $${cost.toFixed(4)}\nTokens: ${input} in, ${output} out\nModel turns: ${turns}`;
}

/** `/status`: the model and its context window with where that figure comes from (SPEC §11.14). */
async function modelStatus(setup: Setup): Promise<string> {
  try {
    const m = await resolveModel(resolveOptions(setup));
    return `model: ${m.label}\ncontext window: ${m.contextWindow} tokens (from ${m.contextSource ?? 'the provider'})\n${modelFactsText(m)}`;
  } catch (e) {
    return `model: none usable (${(e as Error).message.split('\n')[0]})\n`;
  }
}

/**
 * A built-in of the terminal session, typed where nobody is at a terminal (`-p`, the SDK): what it
 * prints, or why it belongs to the interactive session (SPEC §6). Read from the set-up, before any
 * session opens.
 */
async function headlessBuiltin(
  action: UiAction,
  setup: Setup,
): Promise<{ kind: 'print'; text: string } | { kind: 'error'; message: string }> {
  const { cwd, home, memory } = setup;
  switch (action) {
    case 'status':
      return {
        kind: 'print',
        text: `cwd: ${cwd}\n${await modelStatus(setup)}mode: ${setup.mode}\nsettings: ${setup.settings.sources.map((s) => s.file).join(', ') || 'none'}\nmemory: ${memory.files.map((f) => f.path).join(', ') || 'none'}\n`,
      };
    case 'cost':
      return { kind: 'print', text: sessionCost(setup.resume?.path) };
    case 'memory':
      return {
        kind: 'print',
        text: memory.files.length
          ? `${memory.files.map((f) => `${f.path} (${f.scope})`).join('\n')}\nEdit these files to change the instructions.`
          : 'No ASSISTANT.md yet: run "assistant -p /init" to write one, or create ASSISTANT.md yourself.',
      };
    case 'agents': {
      const { agentsText, loadAgents } = await import('./agents.ts');
      const { knownToolNames } = await import('../tools/kinds.ts');
      const a = loadAgents({ projectRoot: cwd, home, known: knownToolNames() });
      return { kind: 'print', text: agentsText(a.agents, a.problems) };
    }
    case 'clear':
      return { kind: 'print', text: 'Every headless run without -c or -r starts a fresh conversation; nothing to clear.' };
    case 'model':
      return {
        kind: 'error',
        message: '/model belongs to the interactive session; a headless run takes --model PROVIDER:MODEL (or settings "model").',
      };
    default:
      return { kind: 'error', message: `/${action} belongs to the interactive session: run "assistant" and type it there.` };
  }
}

/** What a line dispatches to where nobody is at a terminal: a built-in answered, an error worded for `-p`. */
export type HeadlessDispatch = Exclude<Dispatch, { kind: 'ui' | 'error' }> | { kind: 'error'; message: string };

/**
 * The dispatcher for `-p` and the SDK (SPEC §6, §15): the built-ins of the terminal session are
 * answered from the set-up (or refused), and an error is worded as `-p` prints it.
 */
export async function dispatchHeadless(text: string, ctx: DispatchContext, setup: Setup): Promise<HeadlessDispatch> {
  let d: Dispatch | Awaited<ReturnType<typeof headlessBuiltin>> = await dispatch(text, ctx);
  if (d.kind === 'ui') d = await headlessBuiltin(d.action, setup);
  if (d.kind !== 'error') return d;
  if ('unknown' in d && d.unknown) return { kind: 'error', message: `${d.message} Run "assistant -p /help" for the list.` };
  return { kind: 'error', message: 'of' in d && d.of ? `${d.of}: ${d.message}` : d.message };
}
