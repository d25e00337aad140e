/**
 * xterm's modifyOtherKeys form of a modified key, `ESC[27;<modifiers>;<code>~` (xterm, and
 * terminals configured like it, send Shift+Enter as `ESC[27;2;13~`).
 */
const MODIFY_OTHER_KEYS = /\x1b\[27;(\d+);(\d+)~/g;

/**
 * Rewrites modifyOtherKeys sequences read from `stdin` into the equivalent CSI-u form
 * (`ESC[<code>;<modifiers>u`), which Ink parses into a key with its modifiers; Ink drops the
 * xterm form as a sequence it does not know, so Shift+Enter would do nothing. Wraps `read`,
 * which is how Ink takes input. A sequence split across two reads is left as it is.
 */
export function translateModifiedKeys(stdin: NodeJS.ReadStream | { read: (...a: never[]) => unknown }): void {
  const s = stdin as { read: (...a: unknown[]) => unknown };
  const read = s.read;
  s.read = function (this: unknown, ...args: unknown[]) {
    const chunk = read.apply(this, args);
    if (typeof chunk === 'string') return chunk.includes('\x1b[27;') ? chunk.replace(MODIFY_OTHER_KEYS, '\x1b[$2;$1u') : chunk;
    if (Buffer.isBuffer(chunk) && chunk.includes('\x1b[27;')) return Buffer.from(chunk.toString('utf8').replace(MODIFY_OTHER_KEYS, '\x1b[$2;$1u'), 'utf8');
    return chunk;
  };
}
