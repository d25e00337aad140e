import { render } from 'ink';
import { App } from './app.tsx';
import { SelectDialog } from './components/select-dialog.tsx';
import type { Controller } from './controller.ts';
import { quietConsole } from './quiet-console.ts';
import { titleRestore } from './terminal-title.ts';
import type { Choice } from './state.ts';
import { translateModifiedKeys } from './stdin-keys.ts';

/** Terminal modes we may have switched on; written on any exit so a crash leaves the terminal usable. */
const RESTORE = '\x1b[?2004l\x1b[?25h';
/** Erase the screen and the scrollback, cursor home. */
const WIPE = '\x1b[2J\x1b[3J\x1b[H';

/**
 * Renders the session screen until the user leaves, then runs the SessionStart hooks (the screen
 * shows "Starting…" meanwhile, and what is typed is queued). The first prompt, if any, is sent
 * once they are done.
 */
export async function startUi(ctrl: Controller, firstPrompt?: string): Promise<void> {
  translateModifiedKeys(process.stdin);
  // The console is silenced, not patched: what a library prints must not reach the screen.
  const loud = quietConsole();
  const instance = render(<App ctrl={ctrl} />, {
    exitOnCtrlC: false,
    interactive: true,
    patchConsole: false,
    maxFps: 30,
    incrementalRendering: true,
  });
  const wipe = () => {
    instance.clear();
    process.stdout.write(WIPE);
  };
  ctrl.onClearScreen = wipe;
  const stopResize = redrawOnResize(ctrl, wipe);
  const started = ctrl.start().catch((e: unknown) => ctrl.notice('error', `SessionStart failed: ${(e as Error).message}`));
  if (firstPrompt?.trim()) void ctrl.submit(firstPrompt);
  try {
    await instance.waitUntilExit();
  } finally {
    loud();
    if (process.stdout.isTTY) process.stdout.write(titleRestore());
  }
  stopResize();
  await started;
}

/**
 * A change of width makes the terminal reflow what is on screen, so Ink's count of the lines it
 * drew no longer matches and it leaves copies of the old frame (and of the paragraph being
 * streamed). So, as Claude Code does, once the resizing has settled and Ink has drawn at the new
 * width, the screen and scrollback are wiped and the whole history is printed again at the new
 * width. Heights alone are Ink's business.
 */
function redrawOnResize(ctrl: Controller, wipe: () => void): () => void {
  let width = process.stdout.columns;
  let timer: NodeJS.Timeout | undefined;
  const onResize = () => {
    clearTimeout(timer);
    timer = setTimeout(() => {
      if (process.stdout.columns === width) return;
      width = process.stdout.columns;
      wipe();
      ctrl.reprint();
    }, 100);
  };
  process.stdout.on('resize', onResize);
  return () => {
    clearTimeout(timer);
    process.stdout.off('resize', onResize);
  };
}

/** A list shown before the session opens (`-r` without an id). Resolves undefined on Esc. */
export async function pick(title: string, options: Array<Choice<string>>, body?: string): Promise<string | undefined> {
  let answer: string | undefined;
  const width = Math.max(20, (process.stdout.columns ?? 80) - 1);
  const instance = render(
    <SelectDialog
      title={title}
      body={body}
      options={options}
      width={width}
      onAnswer={(v) => {
        answer = v;
        instance.clear();
        instance.unmount();
      }}
    />,
    { exitOnCtrlC: false, interactive: true },
  );
  await instance.waitUntilExit();
  return answer;
}

/** Leaves the terminal as it was (raw mode off, cursor shown, bracketed paste off), even after a crash. */
export function guardTerminal(): void {
  process.on('exit', () => {
    try {
      if (process.stdin.isTTY) process.stdin.setRawMode(false);
    } catch {
      /* already closed */
    }
    try {
      if (process.stdout.isTTY) process.stdout.write(RESTORE + titleRestore());
    } catch {
      /* already closed */
    }
  });
}
