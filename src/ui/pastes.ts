/** Pastes longer than this many lines (or characters) are collapsed in the input box. */
const MAX_LINES = 10;
const MAX_CHARS = 2000;
const MARK = /\[Pasted text #(\d+) (?:\+\d+ lines|\d+ characters)\]/g;

/**
 * Large pastes, as Claude Code shows them: the input box holds `[Pasted text #1 +40 lines]` and
 * the text itself is put back when the prompt is sent. A mark the user edited is sent as typed.
 */
export class Pastes {
  private readonly texts = new Map<number, string>();
  private next = 1;

  /** What to insert for a paste: the text itself, or a mark standing for it. */
  add(text: string): string {
    const body = text.replace(/\r\n?/g, '\n').replace(/\n$/, '');
    const lines = body.split('\n').length;
    if (lines <= MAX_LINES && body.length <= MAX_CHARS) return text;
    const n = this.next++;
    this.texts.set(n, body);
    return lines > 1 ? `[Pasted text #${n} +${lines} lines]` : `[Pasted text #${n} ${body.length} characters]`;
  }

  /** The prompt with every mark replaced by its paste. */
  expand(text: string): string {
    return text.replace(MARK, (m, n: string) => this.texts.get(Number(n)) ?? m);
  }

  clear(): void { this.texts.clear(); }
}
