import { basename } from 'node:path';
import { useEffect } from 'react';
import { useStdout } from 'ink';
import type { UiState } from './state.ts';

/** Marks before the title: the model works; a question waits for the user. */
const TITLE_MARKS = { working: '✻ ', waiting: '✋ ' } as const;

/**
 * The terminal's title (SPEC §1: the session in a tab): the session's first prompt, short, and the
 * project's folder; just the folder before the first prompt. Marked while the model works and,
 * above all, while a question waits for an answer. Pure.
 */
function titleText(o: { cwd: string; topic?: string; working: boolean; waiting: boolean }): string {
  const clean = (s: string) =>
    s
      .replace(/[\x00-\x1f\x7f]+/g, ' ')
      .replace(/\s+/g, ' ')
      .trim();
  const project = clean(basename(o.cwd)) || o.cwd;
  const topic = o.topic ? clean(o.topic) : '';
  const short = topic.length > 40 ? `${topic.slice(0, 39).trimEnd()}…` : topic;
  const mark = o.waiting ? TITLE_MARKS.waiting : o.working ? TITLE_MARKS.working : '';
  return `${mark}${short ? `${short} · ` : ''}${project}`;
}

/** OSC 0: icon name and window title. */
const SET = (t: string) => `\x1b]0;${t}\x07`;
/** xterm's title stack: push the title the terminal had (22), pop it back (23). Terminals without one ignore both. */
const PUSH = '\x1b[22;0t';
const POP = '\x1b[23;0t';

let saved = false;

/**
 * What gives the terminal its title back: an empty title (terminals without a title stack then
 * show their default, and most shells set their own at the next prompt), then the one pushed at
 * start. Empty when the session never set a title. Runs on exit, crash included (start.tsx).
 */
export function titleRestore(): string {
  if (!saved) return '';
  saved = false;
  return `${SET('')}${POP}`;
}

/**
 * Keeps the terminal's title up to date with the session (settings `ui.terminalTitle: false` turns
 * it off), and rings the bell when a permission question opens (`ui.bell: true`; as the Notification
 * hooks' `permission_prompt`, not for the lists the user opens). Only on a real terminal.
 */
export function useTerminalTitle(state: UiState, o: { title: boolean; bell: boolean }): void {
  const { stdout } = useStdout();
  const tty = !!(stdout as NodeJS.WriteStream).isTTY;
  const topic = state.history.find((i) => i.kind === 'user')?.text;
  const text = titleText({ cwd: state.cwd, topic, working: !!state.live.busy, waiting: !!state.question });
  useEffect(() => {
    if (!tty || !o.title) return;
    stdout.write(`${saved ? '' : PUSH}${SET(text)}`);
    saved = true;
  }, [text, tty, o.title]);
  const question = state.question?.kind === 'permission' ? state.question.id : undefined;
  useEffect(() => {
    if (tty && o.bell && question !== undefined) stdout.write('\x07');
  }, [question, tty, o.bell]);
}
