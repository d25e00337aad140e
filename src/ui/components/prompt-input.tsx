import { useEffect, useRef, useState } from 'react';
import { Box, Text, useCursor, useInput, usePaste, type DOMElement } from 'ink';
import wrapAnsi from 'wrap-ansi';
import * as ed from '../editor.ts';
import type { Controller } from '../controller.ts';
import { Pastes } from '../pastes.ts';
import { imageReferences } from '../dropped-images.ts';
import type { UiState } from '../state.ts';
import { CompletionMenu, useCompletionMenu } from './completion-menu.tsx';
import { usePromptHints } from './prompt-hints.ts';

const DOUBLE_MS = 2000;
const ESC_DOUBLE_MS = 800;

/**
 * The cursor: a cell in inverse video, written as the raw attribute so that it survives NO_COLOR
 * (chalk drops every style at colour level 0, and NO_COLOR means no colour, not no cursor).
 */
const cursor = (ch: string) => `\x1b[7m${ch}\x1b[27m`;

/** Word-wrapped to `width` here, so no line starts with the space it was broken at. */
const fit = (text: string, width: number) => wrapAnsi(text, Math.max(10, width), { hard: true, trim: true });

/** Columns of the box around the text: its border and padding (2 each side) and the `> ` lead. */
const CHROME = 6;

/** Where a box is on the screen: its offset from the top-left of Ink's output (layout of the last frame). */
function origin(node: DOMElement | null): { x: number; y: number } {
  let x = 0;
  let y = 0;
  for (let n: DOMElement | undefined = node ?? undefined; n; n = n.parentNode) {
    const l = n.yogaNode?.getComputedLayout();
    if (l) {
      x += l.left;
      y += l.top;
    }
  }
  return { x, y };
}

/**
 * The input box: multi-line editing (\ then Enter, Shift+Enter or Alt+Enter for a new line), history (↑/↓), a live menu
 * of /commands and @paths (↑/↓ to choose, Tab or Enter to complete), and the session keys: Esc interrupts, Shift+Tab cycles the mode,
 * Ctrl-C interrupts / clears / quits when pressed twice, Ctrl-D on an empty line quits.
 */
export function PromptInput({
  ctrl,
  busy,
  width,
  active,
  draft,
}: {
  ctrl: Controller;
  busy: boolean;
  width: number;
  active: boolean;
  draft?: UiState['draft'];
}) {
  // The buffer lives in a ref so that several keys handled before React re-renders all apply.
  const bufRef = useRef<ed.Buffer>(ed.emptyBuffer());
  const [buf, setBufState] = useState<ed.Buffer>(bufRef.current);
  const setBuf = (b: ed.Buffer | ((old: ed.Buffer) => ed.Buffer)) => {
    bufRef.current = typeof b === 'function' ? b(bufRef.current) : b;
    setBufState(bufRef.current);
  };
  const completion = useCompletionMenu({ cwd: ctrl.setup.cwd, home: ctrl.setup.home, mcp: () => ctrl.session?.mcp }, buf);
  const pastes = useRef(new Pastes());
  const hist = useRef<{ idx?: number; draft?: ed.Buffer }>({});
  const lastCtrlC = useRef(0);
  const lastEsc = useRef(0);
  const box = useRef<DOMElement>(null);
  const { setCursorPosition } = useCursor();
  /** The text's width inside the box: where its lines wrap, and what ↑/↓ move across. */
  const textWidth = Math.max(4, width - CHROME);

  const edit = (b: ed.Buffer) => {
    setBuf(b);
    hist.current.idx = undefined;
  };
  // A draft from the controller (a rewound prompt) replaces the text, once per id.
  useEffect(() => {
    if (draft) {
      if (draft.pastes) pastes.current.restore(draft.pastes);
      edit(ed.bufferOf(draft.text));
    }
  }, [draft?.id]);

  /** The menu, if it is about the word now before the cursor (it is recomputed a frame later). */
  const liveMenu = () => {
    const m = completion.menu;
    const { token, start } = ed.currentToken(bufRef.current);
    return m && start === m.start && token[0] === (m.kind === 'slash' ? '/' : '@') ? { m, token } : undefined;
  };
  /** Tab or Enter on the menu: the chosen item replaces the word; Enter runs a command that takes no arguments. */
  const accept = (enter: boolean) => {
    const live = liveMenu();
    if (!live) return false;
    const it = live.m.items[live.m.sel];
    if (enter && live.token === it.value && !it.partial) return false; // already complete: Enter sends
    if (enter && live.m.kind === 'slash' && !it.args) {
      submit(ed.replaceToken(bufRef.current, live.m.start, it.value).text);
      return true;
    }
    edit(ed.replaceToken(bufRef.current, live.m.start, it.value + (it.partial ? '' : ' ')));
    return true;
  };

  /** A history entry in the input, its menu hidden until the user edits it (as Claude Code does). */
  const recall = (text: string) => {
    completion.dismiss(text);
    setBuf(ed.bufferOf(text));
  };

  const submit = (text = bufRef.current.text) => {
    setBuf(ed.emptyBuffer());
    hist.current = {};
    const whole = pastes.current.expand(text);
    pastes.current.clear();
    void ctrl.submit(whole, whole === text ? undefined : text.replace(/\s+$/, ''));
  };

  // Keys typed faster than they are read arrive as one chunk ("fix it\r"): a carriage return in
  // it is Enter. (Pasted text comes through usePaste, where newlines stay newlines.)
  const typed = (input: string) => {
    const parts = input.split('\r');
    let b = bufRef.current;
    for (let i = 0; i < parts.length; i++) {
      b = ed.insert(b, parts[i]);
      if (i < parts.length - 1) {
        if (b.text.slice(0, b.cursor).endsWith('\\')) {
          b = ed.insert(ed.backspace(b), '\n');
          continue;
        }
        submit(b.text);
        b = ed.emptyBuffer();
      }
    }
    edit(b);
  };

  useInput(
    (input, key) => {
      ctrl.touch();
      if (key.ctrl && input === 'c') {
        if (busy) {
          ctrl.interrupt();
          return;
        }
        if (bufRef.current.text) {
          edit(ed.emptyBuffer());
          return;
        }
        const now = Date.now();
        if (now - lastCtrlC.current < DOUBLE_MS) {
          ctrl.hint(undefined);
          void ctrl.exit();
          return;
        }
        lastCtrlC.current = now;
        ctrl.hint('Press Ctrl-C again to exit');
        setTimeout(() => {
          if (Date.now() - lastCtrlC.current >= DOUBLE_MS) ctrl.hint(undefined);
        }, DOUBLE_MS + 50);
        return;
      }
      if (key.ctrl && input === 'd') {
        if (!bufRef.current.text) void ctrl.exit();
        else edit(ed.del(bufRef.current));
        return;
      }
      if (key.tab && key.shift) {
        ctrl.cycleMode();
        return;
      }
      if (key.ctrl && input === 'o') {
        ctrl.expand();
        return;
      }
      if (key.ctrl && input === 'l') {
        ctrl.redraw();
        return;
      }
      if (key.escape) {
        if (liveMenu()) {
          completion.dismiss(bufRef.current.text);
          return;
        }
        if (busy) {
          ctrl.interrupt();
          return;
        }
        const now = Date.now();
        const double = now - lastEsc.current < ESC_DOUBLE_MS;
        lastEsc.current = double ? 0 : now;
        if (double) {
          if (bufRef.current.text) edit(ed.emptyBuffer());
          else void ctrl.submit('/rewind');
        }
        return;
      }
      if (key.tab) {
        accept(false);
        return;
      }
      // Shift+Enter (and Alt+Enter) is a new line. Terminals that report Shift+Enter send it as
      // CSI-u (`ESC[13;2u`, parsed as Return with shift) or in xterm's modifyOtherKeys form
      // (`ESC[27;2;13~`, rewritten to CSI-u on the way in: stdin-keys.ts).
      if (key.return && (key.meta || key.shift)) {
        edit(ed.insert(bufRef.current, '\n'));
        return;
      }
      if (key.return) {
        if (bufRef.current.text.slice(0, bufRef.current.cursor).endsWith('\\')) {
          edit(ed.insert(ed.backspace(bufRef.current), '\n'));
          return;
        }
        if (accept(true)) return;
        submit();
        return;
      }
      if (input === '\n') {
        edit(ed.insert(bufRef.current, '\n'));
        return;
      }
      // ↑/↓ choose in the menu only while the user types a command or path: a prompt recalled
      // from history (which may start with `/`) opens no menu, and ↑/↓ keep browsing history.
      if ((key.upArrow || key.downArrow) && hist.current.idx === undefined && liveMenu()) {
        completion.move(key.upArrow ? -1 : 1);
        return;
      }
      if (key.upArrow) {
        const moved = ed.up(bufRef.current, textWidth);
        if (moved) {
          setBuf(moved);
          return;
        }
        const all = ctrl.history.all;
        const idx = (hist.current.idx ?? all.length) - 1;
        if (idx < 0) return;
        if (hist.current.idx === undefined) hist.current.draft = bufRef.current;
        hist.current.idx = idx;
        recall(all[idx]);
        return;
      }
      if (key.downArrow) {
        const moved = ed.down(bufRef.current, textWidth);
        if (moved) {
          setBuf(moved);
          return;
        }
        if (hist.current.idx === undefined) return;
        const all = ctrl.history.all;
        const idx = hist.current.idx + 1;
        if (idx >= all.length) {
          setBuf(hist.current.draft ?? ed.emptyBuffer());
          hist.current = {};
          return;
        }
        hist.current.idx = idx;
        recall(all[idx]);
        return;
      }
      if (key.leftArrow) {
        setBuf(ed.left(bufRef.current));
        return;
      }
      if (key.rightArrow) {
        setBuf(ed.right(bufRef.current));
        return;
      }
      if (key.home || (key.ctrl && input === 'a')) {
        setBuf(ed.lineStart(bufRef.current));
        return;
      }
      if (key.end || (key.ctrl && input === 'e')) {
        setBuf(ed.lineEnd(bufRef.current));
        return;
      }
      if (key.backspace) {
        edit(key.meta ? ed.deleteWord(bufRef.current) : ed.backspace(bufRef.current));
        return;
      }
      if (key.delete) {
        edit(ed.del(bufRef.current));
        return;
      }
      if (key.ctrl && input === 'u') {
        edit(ed.killToStart(bufRef.current));
        return;
      }
      if (key.ctrl && input === 'k') {
        edit(ed.killToEnd(bufRef.current));
        return;
      }
      if (key.ctrl && input === 'w') {
        edit(ed.deleteWord(bufRef.current));
        return;
      }
      if (input && !key.ctrl && !key.meta) typed(input);
    },
    { isActive: active },
  );

  usePaste(
    (text) => {
      ctrl.touch();
      // A dragged screenshot (or its pasted path) becomes an `@` reference that attaches it.
      const images = imageReferences(text, ctrl.setup.cwd, ctrl.setup.home);
      if (images) for (const p of images.paths) ctrl.session?.allowDropped(p);
      edit(ed.insert(bufRef.current, images?.text ?? pastes.current.add(text)));
    },
    { isActive: active },
  );
  // The prompt lint's findings as hints under the input (SPEC §7): advice, never blocking; after a
  // pause in typing, and only those that matter (prompt-hints.ts). Settings `ui.promptHints` turns them off.
  const hints = usePromptHints(buf.text, {
    enabled: ctrl.setup.settings?.merged.ui?.promptHints !== false,
    conventionFile: (ctrl.setup.memory?.files.length ?? 0) > 0,
  });
  const rows = ed.layout(buf.text, textWidth);
  const at = ed.caret(rows, buf.text, buf.cursor);
  // The terminal's own cursor sits on the caret, so an input method (CJK) opens its window there.
  // Read when Ink writes the frame, after layout: the box may have moved since this render.
  setCursorPosition(
    active
      ? {
          get x() {
            return origin(box.current).x + CHROME - 2 + at.col;
          },
          get y() {
            return origin(box.current).y + 1 + at.row;
          },
        }
      : undefined,
  );
  // Hidden while a question is open, but kept mounted so a half-typed prompt survives it.
  if (!active) return null;

  // After a completed command, its arguments' hint, dim, where they go (as Claude Code shows it).
  const argHint = buf.cursor === buf.text.length ? completion.argHint(buf.text) : undefined;
  return (
    <Box flexDirection="column">
      <Box ref={box} borderStyle="round" borderColor="gray" flexDirection="column" width={width} paddingX={1}>
        {!buf.text ? (
          <Text>
            {'> '}
            {cursor(' ')}
            <Text dimColor>{busy ? '' : 'Try "explain this project" · / for commands · @ for files'}</Text>
          </Text>
        ) : (
          rows.map((r, k) => {
            // A wrapped line goes on under its text, not under the `>`.
            const lead = k === 0 ? '> ' : '  ';
            const l = buf.text.slice(r.start, r.end);
            if (k !== at.row)
              return (
                <Text key={k}>
                  {lead}
                  {l}
                </Text>
              );
            const c = buf.cursor - r.start;
            const under = buf.cursor < r.end ? buf.text.slice(buf.cursor, ed.nextBoundary(buf.text, buf.cursor)) : '';
            return (
              <Text key={k}>
                {lead}
                {l.slice(0, c)}
                {cursor(under || ' ')}
                {l.slice(c + under.length)}
                {argHint && <Text dimColor>{argHint}</Text>}
              </Text>
            );
          })
        )}
      </Box>
      {/* Each finding, and the first one's remedy below it, wrapped under the finding's text. */}
      {!completion.menu &&
        hints.map((h, k) => (
          <Box key={h.id} width={width}>
            <Box width={8} flexShrink={0}>
              <Text dimColor>{'  hint:'}</Text>
            </Box>
            <Box flexDirection="column" flexShrink={1}>
              <Text dimColor>{fit(h.detail, width - 8)}</Text>
              {k === 0 && <Text dimColor>{fit(h.remedy, width - 8)}</Text>}
            </Box>
          </Box>
        ))}
      {completion.menu && <CompletionMenu menu={completion.menu} width={width} />}
    </Box>
  );
}
