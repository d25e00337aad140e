import { useEffect, useMemo, useRef, useState } from 'react';
import { Box, Text, useInput, usePaste } from 'ink';
import { loadCommands } from '../../commands/loader.ts';
import { lintPrompt } from '../../recipes/lint.ts';
import { commonPrefix, pathCandidates, slashCandidates, type Candidate } from '../complete.ts';
import * as ed from '../editor.ts';
import type { Controller } from '../controller.ts';

const DOUBLE_MS = 2000;
const ESC_DOUBLE_MS = 800;

interface Completion { items: Candidate[]; sel: number; start: number }

/**
 * The input box: multi-line editing (\ or Alt+Enter for a new line), history (↑/↓), Tab completion
 * of /commands and @paths, and the session keys: Esc interrupts, Shift+Tab cycles the mode,
 * Ctrl-C interrupts / clears / quits when pressed twice, Ctrl-D on an empty line quits.
 */
export function PromptInput({ ctrl, busy, width, active, draft }: { ctrl: Controller; busy: boolean; width: number; active: boolean; draft?: { id: number; text: string } }) {
  // The buffer lives in a ref so that several keys handled before React re-renders all apply.
  const bufRef = useRef<ed.Buffer>(ed.emptyBuffer());
  const [buf, setBufState] = useState<ed.Buffer>(bufRef.current);
  const setBuf = (b: ed.Buffer | ((old: ed.Buffer) => ed.Buffer)) => {
    bufRef.current = typeof b === 'function' ? b(bufRef.current) : b;
    setBufState(bufRef.current);
  };
  const [comp, setComp] = useState<Completion | undefined>(undefined);
  const hist = useRef<{ idx?: number; draft?: ed.Buffer }>({});
  const lastCtrlC = useRef(0);
  const lastEsc = useRef(0);

  const edit = (b: ed.Buffer) => { setBuf(b); setComp(undefined); hist.current.idx = undefined; };
  // A draft from the controller (a rewound prompt) replaces the text, once per id.
  useEffect(() => { if (draft) edit(ed.bufferOf(draft.text)); }, [draft?.id]);

  const complete = () => {
    if (comp && comp.items.length > 1) {
      const sel = (comp.sel + 1) % comp.items.length;
      const it = comp.items[sel];
      setBuf((b) => ed.replaceToken(b, comp.start, it.value));
      setComp({ ...comp, sel });
      return;
    }
    const { token, start } = ed.currentToken(bufRef.current);
    let items: Candidate[] = [];
    if (token.startsWith('/') && start === 0) items = slashCandidates(token, loadCommands({ projectRoot: ctrl.setup.cwd, home: ctrl.setup.home }));
    else if (token.startsWith('@')) items = pathCandidates(token, ctrl.setup.cwd, ctrl.setup.home);
    if (items.length === 0) return;
    if (items.length === 1) {
      setBuf(ed.replaceToken(bufRef.current, start, items[0].value + (items[0].partial ? '' : ' ')));
      setComp(undefined);
      return;
    }
    const prefix = commonPrefix(items.map((i) => i.value));
    setBuf(ed.replaceToken(bufRef.current, start, prefix.length > token.length ? prefix : token));
    setComp({ items, sel: -1, start });
  };

  const submit = (text = bufRef.current.text) => {
    setBuf(ed.emptyBuffer());
    setComp(undefined);
    hist.current = {};
    void ctrl.submit(text);
  };

  // Keys typed faster than they are read arrive as one chunk ("fix it\r"): a carriage return in
  // it is Enter. (Pasted text comes through usePaste, where newlines stay newlines.)
  const typed = (input: string) => {
    const parts = input.split('\r');
    let b = bufRef.current;
    for (let i = 0; i < parts.length; i++) {
      b = ed.insert(b, parts[i]);
      if (i < parts.length - 1) {
        if (b.text.slice(0, b.cursor).endsWith('\\')) { b = ed.insert(ed.backspace(b), '\n'); continue; }
        submit(b.text);
        b = ed.emptyBuffer();
      }
    }
    edit(b);
  };

  useInput((input, key) => {
    ctrl.touch();
    if (key.ctrl && input === 'c') {
      if (busy) { ctrl.interrupt(); return; }
      if (bufRef.current.text) { edit(ed.emptyBuffer()); return; }
      const now = Date.now();
      if (now - lastCtrlC.current < DOUBLE_MS) { ctrl.hint(undefined); void ctrl.exit(); return; }
      lastCtrlC.current = now;
      ctrl.hint('Press Ctrl-C again to exit');
      setTimeout(() => { if (Date.now() - lastCtrlC.current >= DOUBLE_MS) ctrl.hint(undefined); }, DOUBLE_MS + 50);
      return;
    }
    if (key.ctrl && input === 'd') {
      if (!bufRef.current.text) void ctrl.exit();
      else edit(ed.del(bufRef.current));
      return;
    }
    if (key.tab && key.shift) { ctrl.cycleMode(); return; }
    if (key.ctrl && input === 'o') { ctrl.expand(); return; }
    if (key.escape) {
      if (comp) { setComp(undefined); return; }
      if (busy) { ctrl.interrupt(); return; }
      const now = Date.now();
      const double = now - lastEsc.current < ESC_DOUBLE_MS;
      lastEsc.current = double ? 0 : now;
      if (double) {
        if (bufRef.current.text) edit(ed.emptyBuffer());
        else void ctrl.submit('/rewind');
      }
      return;
    }
    if (key.tab) { complete(); return; }
    if (key.return) {
      if (key.meta) { edit(ed.insert(bufRef.current, '\n')); return; }
      if (bufRef.current.text.slice(0, bufRef.current.cursor).endsWith('\\')) { edit(ed.insert(ed.backspace(bufRef.current), '\n')); return; }
      if (comp && comp.sel >= 0) { setComp(undefined); return; }
      submit();
      return;
    }
    if (input === '\n') { edit(ed.insert(bufRef.current, '\n')); return; }
    if (key.upArrow) {
      const moved = ed.up(bufRef.current);
      if (moved) { setBuf(moved); return; }
      const all = ctrl.history.all;
      const idx = (hist.current.idx ?? all.length) - 1;
      if (idx < 0) return;
      if (hist.current.idx === undefined) hist.current.draft = bufRef.current;
      hist.current.idx = idx;
      setBuf(ed.bufferOf(all[idx]));
      setComp(undefined);
      return;
    }
    if (key.downArrow) {
      const moved = ed.down(bufRef.current);
      if (moved) { setBuf(moved); return; }
      if (hist.current.idx === undefined) return;
      const all = ctrl.history.all;
      const idx = hist.current.idx + 1;
      if (idx >= all.length) { setBuf(hist.current.draft ?? ed.emptyBuffer()); hist.current = {}; return; }
      hist.current.idx = idx;
      setBuf(ed.bufferOf(all[idx]));
      return;
    }
    if (key.leftArrow) { setBuf(ed.left(bufRef.current)); return; }
    if (key.rightArrow) { setBuf(ed.right(bufRef.current)); return; }
    if (key.home || (key.ctrl && input === 'a')) { setBuf(ed.lineStart(bufRef.current)); return; }
    if (key.end || (key.ctrl && input === 'e')) { setBuf(ed.lineEnd(bufRef.current)); return; }
    if (key.backspace) { edit(key.meta ? ed.deleteWord(bufRef.current) : ed.backspace(bufRef.current)); return; }
    if (key.delete) { edit(ed.del(bufRef.current)); return; }
    if (key.ctrl && input === 'u') { edit(ed.killToStart(bufRef.current)); return; }
    if (key.ctrl && input === 'k') { edit(ed.killToEnd(bufRef.current)); return; }
    if (key.ctrl && input === 'w') { edit(ed.deleteWord(bufRef.current)); return; }
    if (input && !key.ctrl && !key.meta) typed(input);
  }, { isActive: active });

  usePaste((text) => { ctrl.touch(); edit(ed.insert(bufRef.current, text)); }, { isActive: active });
  // The prompt lint's findings as hints under the input (SPEC §7): advice, never blocking.
  const hints = useMemo(() => (buf.text.length >= 12 && !buf.text.startsWith('/') ? lintPrompt(buf.text).slice(0, 2) : []), [buf.text]);
  // Hidden while a question is open, but kept mounted so a half-typed prompt survives it.
  if (!active) return null;

  const { line, col, lines } = ed.position(buf);
  return (
    <Box flexDirection="column">
      <Box borderStyle="round" borderColor="gray" flexDirection="column" width={width} paddingX={1}>
        {!buf.text
          ? <Text>{'> '}<Text inverse> </Text><Text dimColor>{busy ? '' : 'Try "explain this project" · / for commands · @ for files'}</Text></Text>
          : lines.map((l, i) => {
            const lead = i === 0 ? '> ' : '  ';
            if (i !== line) return <Text key={i}>{lead}{l}</Text>;
            return <Text key={i}>{lead}{l.slice(0, col)}<Text inverse>{l[col] ?? ' '}</Text>{l.slice(col + 1)}</Text>;
          })}
      </Box>
      {!comp && hints.map((h) => (
        <Text key={h.id} dimColor wrap="truncate-end">{`  hint: ${h.detail}: ${h.remedy}`}</Text>
      ))}
      {comp && (
        <Box flexDirection="column" paddingLeft={2}>
          {comp.items.slice(0, 8).map((c, k) => (
            <Text key={c.value} color={k === comp.sel ? 'cyan' : undefined}>{c.value}{c.hint && <Text dimColor>  {c.hint}</Text>}</Text>
          ))}
          {comp.items.length > 8 && <Text dimColor>… {comp.items.length - 8} more (keep typing)</Text>}
        </Box>
      )}
    </Box>
  );
}
