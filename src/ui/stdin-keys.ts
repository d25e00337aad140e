/**
 * xterm's modifyOtherKeys form of a modified key, `ESC[27;<modifiers>;<code>~` (xterm, and
 * terminals configured like it, send Shift+Enter as `ESC[27;2;13~`).
 */
const MODIFY_OTHER_KEYS = /\x1b\[27;(\d+);(\d+)~/g;
const PASTE_START = '\x1b[200~';
const PASTE_END = '\x1b[201~';

/**
 * A control key (Ctrl-A … Ctrl-Z and the like) that must reach the input as a key of its own.
 * Not ESC (Ink's parser splits escape sequences), not Tab, Enter or a line feed (they stay in
 * typed text, where the input box handles them), not Backspace or Ctrl-C (Ink splits those).
 */
const isControl = (c: number) => c < 0x20 && c !== 0x1b && c !== 0x09 && c !== 0x0a && c !== 0x0d && c !== 0x08 && c !== 0x03;

/**
 * Cuts one read from the terminal into the keys it holds. Ink hands a read of plain text to the
 * input as one event, so two control keys read together (`C-w C-w` from key repeat, `C-a C-k` from
 * a macro or a fast typist over ssh) would arrive as one unknown key and do nothing: each control
 * key becomes a read of its own, with the text around it. A bracketed paste is left whole (it may
 * span reads: `inPaste` carries over).
 */
export class KeySplitter {
  private inPaste = false;

  split(chunk: string): string[] {
    const out: string[] = [];
    let start = 0;
    let i = 0;
    while (i < chunk.length) {
      if (this.inPaste) {
        const end = chunk.indexOf(PASTE_END, i);
        if (end < 0) break;
        this.inPaste = false;
        i = end + PASTE_END.length;
        continue;
      }
      if (chunk.startsWith(PASTE_START, i)) {
        this.inPaste = true;
        i += PASTE_START.length;
        continue;
      }
      if (isControl(chunk.charCodeAt(i))) {
        if (i > start) out.push(chunk.slice(start, i));
        out.push(chunk[i]);
        start = i + 1;
      }
      i++;
    }
    if (start < chunk.length) out.push(chunk.slice(start));
    return out;
  }
}

/**
 * Wraps `read`, which is how Ink takes input, so that it sees each key of a read on its own
 * (KeySplitter), and rewrites modifyOtherKeys sequences into the equivalent CSI-u form
 * (`ESC[<code>;<modifiers>u`), which Ink parses into a key with its modifiers; Ink drops the
 * xterm form as a sequence it does not know, so Shift+Enter would do nothing. A sequence split
 * across two reads is left as it is.
 */
export function translateModifiedKeys(stdin: NodeJS.ReadStream | { read: (...a: never[]) => unknown }): void {
  const s = stdin as { read: (...a: unknown[]) => unknown };
  const read = s.read;
  const splitter = new KeySplitter();
  const queue: string[] = [];
  s.read = function (this: unknown, ...args: unknown[]) {
    if (queue.length) return queue.shift();
    const chunk = read.apply(this, args);
    if (typeof chunk !== 'string' && !Buffer.isBuffer(chunk)) return chunk;
    let text = typeof chunk === 'string' ? chunk : chunk.toString('utf8');
    if (text.includes('\x1b[27;')) text = text.replace(MODIFY_OTHER_KEYS, '\x1b[$2;$1u');
    const keys = splitter.split(text);
    if (keys.length === 0) return chunk;
    queue.push(...keys.slice(1));
    return typeof chunk === 'string' ? keys[0] : Buffer.from(keys[0], 'utf8');
  };
}
