import { StringDecoder } from 'node:string_decoder';

function countNewlines(buf: Uint8Array): number {
  let n = 0;
  for (let i = 0; i < buf.length; i++) if (buf[i] === 10) n++;
  return n;
}

/** Drops UTF-8 continuation bytes at the start (a character cut in half by the tail window). */
function fromCharStart(buf: Buffer): Buffer {
  let i = 0;
  while (i < buf.length && i < 4 && (buf[i] & 0xc0) === 0x80) i++;
  return buf.subarray(i);
}

/**
 * Keeps the head and a rolling tail of a stream of output, so memory stays bounded whatever the
 * command prints; counts what it drops. Byte-based while streaming, text when rendered. With
 * `tailMax` 0 it keeps the head only (read it with `headOnly()`).
 */
export class OutputCap {
  private head: Buffer[] = [];
  private headBytes = 0;
  private tail: Buffer[] = [];
  private tailBytes = 0;
  totalBytes = 0;
  newlines = 0;

  constructor(
    private readonly headMax = 16_000,
    private readonly tailMax = 16_000,
  ) {}

  push(chunk: Buffer): void {
    this.totalBytes += chunk.length;
    this.newlines += countNewlines(chunk);
    let rest = chunk;
    if (this.headBytes < this.headMax) {
      const take = Math.min(rest.length, this.headMax - this.headBytes);
      this.head.push(rest.subarray(0, take));
      this.headBytes += take;
      rest = rest.subarray(take);
    }
    if (rest.length === 0 || this.tailMax === 0) return;
    this.tail.push(rest);
    this.tailBytes += rest.length;
    while (this.tail.length > 1 && this.tailBytes - this.tail[0].length >= this.tailMax) {
      this.tailBytes -= this.tail.shift()!.length;
    }
  }

  /** The head as text and the bytes that came after it (a head-only cap). */
  headOnly(): { text: string; dropped: number } {
    const head = this.head.length === 1 ? this.head[0] : Buffer.concat(this.head);
    return { text: head.toString('utf8'), dropped: this.totalBytes - this.headBytes - this.tailBytes };
  }

  /** Rough length of the rendered text, to share a budget between stdout and stderr. */
  get size(): number {
    return Math.min(this.totalBytes, this.headMax + this.tailMax);
  }

  /**
   * At most about `budget` characters: everything if it fits, else the beginning and the end with a
   * note in the middle saying how many lines and bytes were left out.
   */
  render(budget: number): string {
    const headBuf = Buffer.concat(this.head);
    let tailBuf: Buffer = Buffer.concat(this.tail);
    if (tailBuf.length > this.tailMax) tailBuf = fromCharStart(tailBuf.subarray(tailBuf.length - this.tailMax));
    const droppedBytes = this.totalBytes - headBuf.length - tailBuf.length;
    const decoder = new StringDecoder('utf8');
    let head = decoder.write(headBuf);
    let tail: string;
    if (droppedBytes === 0) {
      head += decoder.write(tailBuf) + decoder.end();
      tail = '';
      if (head.length <= budget) return head;
    } else {
      tail = tailBuf.toString('utf8');
    }
    // Keep half the budget from each end, cut at line boundaries where that loses little.
    const half = Math.max(1, Math.floor(budget / 2));
    const all = droppedBytes === 0 ? head : undefined;
    let headPart = (all ?? head).slice(0, half);
    let tailPart = (all ?? tail).slice(-half);
    const nl = headPart.lastIndexOf('\n');
    if (nl > half * 0.8) headPart = headPart.slice(0, nl + 1);
    const tnl = tailPart.indexOf('\n');
    if (tnl !== -1 && tnl < half * 0.2) tailPart = tailPart.slice(tnl + 1);
    const keptBytes = Buffer.byteLength(headPart) + Buffer.byteLength(tailPart);
    const keptLines = countNewlines(Buffer.from(headPart)) + countNewlines(Buffer.from(tailPart));
    const lines = Math.max(0, this.newlines - keptLines);
    const bytes = Math.max(0, this.totalBytes - keptBytes);
    if (!headPart.endsWith('\n')) headPart += '\n';
    return `${headPart}\n… [${lines} lines (${bytes} bytes) of output omitted] …\n\n${tailPart}`;
  }
}

/** Shares `total` characters between two outputs: the smaller keeps what it has, up to a fair share. */
export function shareBudget(a: number, b: number, total: number): [number, number] {
  if (a + b <= total) return [total, total];
  const minShare = Math.floor(total / 3);
  const bBudget = Math.min(b, Math.max(total - a, minShare));
  return [total - bBudget, bBudget];
}
