import { fstatSync } from 'node:fs';
import { Exit } from './exit.ts';

const STDIN_LIMIT = 10 * 1024 * 1024;

/**
 * Reads piped standard input (at most 10 MB). With `firstByteMs`, gives up when nothing arrives
 * that soon: a prompt was given on the command line and stdin is merely an open, silent pipe
 * (CI runners, editors), which must not hang the run.
 */
function readStdin(firstByteMs?: number): Promise<string> {
  return new Promise((resolve) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const done = () => {
      clearTimeout(timer);
      process.stdin.pause();
      process.stdin.removeAllListeners('data');
      resolve(Buffer.concat(chunks).toString('utf8').slice(0, STDIN_LIMIT));
    };
    const timer =
      firstByteMs === undefined
        ? undefined
        : setTimeout(() => {
            if (size === 0) done();
          }, firstByteMs);
    process.stdin.on('data', (c: Buffer) => {
      chunks.push(c);
      size += c.length;
      if (size >= STDIN_LIMIT) done();
    });
    process.stdin.once('end', done);
    process.stdin.once('error', done);
  });
}

/** The prompt of a headless run: piped standard input first, then the prompt of the command line (exit 2 when neither). */
export async function promptWithStdin(firstPrompt: string | undefined, ignoreStdin: boolean | undefined): Promise<string> {
  let prompt = firstPrompt;
  if (!process.stdin.isTTY && !ignoreStdin) {
    // `cat log | assistant -p "explain"`: piped text comes before the prompt, as with claude -p.
    // A pipe or file is read to its end (`npm test 2>&1 | assistant -p "why"`); anything else
    // (a socket left open by a parent) is given a moment, so a silent stdin cannot hang the run.
    const kind = fstatSync(0);
    const finite = kind.isFIFO() || kind.isFile();
    const piped = (await readStdin(prompt === undefined || finite ? undefined : 200)).trim();
    if (piped) prompt = prompt === undefined ? piped : `${piped}\n\n${prompt}`;
  }
  if (!prompt?.trim()) throw new Exit(2, 'No prompt given. Usage: assistant -p "your prompt"   (or pipe the prompt on standard input)');
  return prompt;
}
