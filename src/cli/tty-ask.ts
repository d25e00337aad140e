import { createInterface } from 'node:readline/promises';
import type { AskFn } from '../agent/events.ts';

/** A one-line summary of what a tool call would do, for the question. */
function what(tool: string, input: Record<string, unknown>): string {
  const arg = input.command ?? input.file_path ?? input.path ?? input.pattern;
  return typeof arg === 'string' ? `${tool}(${arg.length > 100 ? `${arg.slice(0, 99)}…` : arg})` : tool;
}

/**
 * Permission questions on the terminal for `recipes run` and `recipes chain` (the answer goes to
 * stdout, so the question goes to stderr): y allows this call, anything else refuses it, and a
 * reason typed after n (`n use yarn`) reaches the model. Only used when stdin and stderr are a TTY.
 */
export const ttyAsk: AskFn = async (req, signal) => {
  const rl = createInterface({ input: process.stdin, output: process.stderr });
  try {
    const answer = (
      await rl.question(`\n${what(req.tool, req.input)} needs approval: ${req.reason}.\nAllow it? [y/N, or n and a note for the model] `, {
        signal,
      })
    ).trim();
    if (/^y(es)?$/i.test(answer)) return { allow: true };
    const note = answer.replace(/^no?\b\s*/i, '');
    return { allow: false, message: `The user refused this tool call${note ? ` and said: ${note}` : '.'}` };
  } catch {
    return { allow: false, message: 'The question was interrupted; the call did not run.' };
  } finally {
    rl.close();
  }
};
