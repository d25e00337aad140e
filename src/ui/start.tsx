import { render } from 'ink';
import { App } from './app.tsx';
import { SelectDialog } from './components/select-dialog.tsx';
import type { Controller } from './controller.ts';
import type { Choice } from './state.ts';

/** Terminal modes we may have switched on; written on any exit so a crash leaves the terminal usable. */
const RESTORE = '\x1b[?2004l\x1b[?25h';

/** Renders the session screen until the user leaves. The first prompt, if any, is sent at once. */
export async function startUi(ctrl: Controller, firstPrompt?: string): Promise<void> {
  const instance = render(<App ctrl={ctrl} />, { exitOnCtrlC: false, patchConsole: true, maxFps: 30, incrementalRendering: true });
  ctrl.onClearScreen = () => {
    instance.clear();
    process.stdout.write('\x1b[2J\x1b[3J\x1b[H');
  };
  if (firstPrompt?.trim()) void ctrl.submit(firstPrompt);
  await instance.waitUntilExit();
}

/** A list shown before the session opens (`-r` without an id). Resolves undefined on Esc. */
export async function pick(title: string, options: Array<Choice<string>>): Promise<string | undefined> {
  let answer: string | undefined;
  const width = Math.max(20, (process.stdout.columns ?? 80) - 1);
  const instance = render(<SelectDialog title={title} options={options} width={width} onAnswer={(v) => { answer = v; instance.clear(); instance.unmount(); }} />, { exitOnCtrlC: false });
  await instance.waitUntilExit();
  return answer;
}

/** Leaves the terminal as it was (raw mode off, cursor shown, bracketed paste off), even after a crash. */
export function guardTerminal(): void {
  process.on('exit', () => {
    try { if (process.stdin.isTTY) process.stdin.setRawMode(false); } catch { /* already closed */ }
    try { if (process.stdout.isTTY) process.stdout.write(RESTORE); } catch { /* already closed */ }
  });
}
