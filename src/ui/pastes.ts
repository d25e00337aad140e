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

  clear(): void {
    this.texts.clear();
  }

  /** Puts back pastes a mark of a text put in the input stands for (a rewound prompt). */
  restore(pastes: ReadonlyMap<number, string>): void {
    for (const [n, text] of pastes) {
      this.texts.set(n, text);
      this.next = Math.max(this.next, n + 1);
    }
  }
}

/**
 * The pastes behind the marks of `shown` (a prompt as the input showed it), found in `full` (the
 * prompt as sent); undefined when `shown` has no mark or does not fit `full`.
 */
export function pastesBehind(shown: string, full: string): Map<number, string> | undefined {
  const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
  const nums: number[] = [];
  let re = '^';
  let last = 0;
  for (const m of shown.matchAll(MARK)) {
    re += `${esc(shown.slice(last, m.index))}([\\s\\S]*?)`;
    nums.push(Number(m[1]));
    last = m.index + m[0].length;
  }
  if (nums.length === 0) return undefined;
  const r = new RegExp(`${re}${esc(shown.slice(last))}$`).exec(full);
  return r ? new Map(nums.map((n, i) => [n, r[i + 1]])) : undefined;
}
