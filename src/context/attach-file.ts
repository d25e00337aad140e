import { binaryByName } from '../fs/binary.ts';
import { type FileStateMap, recordSnapshot } from '../fs/file-state.ts';
import { type Page, numberedRows } from '../fs/read-lines.ts';
import { encodingNote, readTextPage } from '../fs/text-file.ts';

/** One file (or some of its lines) attached to a prompt: the Read tool's numbered format and file-state record. */
interface FileAttachInput {
  abs: string;
  /** How the file is named to the model (relative to the project when inside it). */
  display: string;
  ref: string;
  /** 1-based, inclusive. */
  range?: { start: number; end: number };
  maxLines: number;
  maxBytes: number;
  /** Its `fileState` receives the snapshot, as after a Read. */
  tool: { signal: AbortSignal; fileState: FileStateMap };
}

type FileAttachResult = { text: string; lines: { from: number; to: number; total: number } } | { error: string };

/** Never throws: an unreadable or binary file is an error value naming the reference. */
export async function attachFile(a: FileAttachInput, size: number): Promise<FileAttachResult> {
  const byName = binaryByName(a.abs);
  if (byName) return { error: `${a.ref}: ${a.display} is ${byName}; only text files can be attached` };
  const first = (a.range?.start ?? 1) - 1;
  const wanted = a.range ? a.range.end - a.range.start + 1 : Number.POSITIVE_INFINITY;
  const limit = Math.min(wanted, a.maxLines);
  const binary = { error: `${a.ref}: ${a.display} looks like a binary file (it contains NUL bytes); only text files can be attached` };
  let page: Page;
  let note: string | undefined;
  try {
    // The same decoding as Read (fs/text-file.ts): a file's encoding is said, never mangled.
    const read = await readTextPage(a.abs, size, first, limit, a.tool.signal);
    if (read.kind === 'binary') return binary;
    if (read.kind === 'unsupported') return { error: `${a.ref}: cannot attach ${a.display}: ${read.why}` };
    page = read.page;
    note = encodingNote(read.format);
    await recordSnapshot(a.tool, a.abs, read.whole);
  } catch (e) {
    return { error: `${a.ref}: cannot read ${a.display}: ${(e as Error).message}` };
  }

  const total = page.totalLines;
  const totalText = page.counted ? `${total}` : `more than ${total}`;
  if (total === 0) return { text: `Contents of ${a.display}: (the file is empty)`, lines: { from: 0, to: 0, total: 0 } };
  if (page.lines.length === 0) {
    return { error: `${a.ref}: ${a.display} has only ${totalText} lines, fewer than line ${first + 1}` };
  }
  const { text, shown } = numberedRows(page, first + 1, a.maxBytes, 'bytes');
  const from = first + 1;
  const to = first + shown;
  const askedTo = a.range ? Math.min(a.range.end, total) : total;
  let out = `Contents of ${a.display} (lines ${from}-${to} of ${totalText}):\n${text}`;
  if (to < askedTo || !page.counted) {
    const why = shown < page.lines.length ? `${a.maxBytes} bytes` : `${a.maxLines} lines`;
    out +=
      `\n\n(Attached in part: the attachment limit is ${why}. ${a.display} has ${totalText} lines; ` +
      `to read more, call the Read tool with file_path "${a.abs}" and offset ${to + 1}.)`;
  }
  if (note) out += `\n\n(${note})`;
  return { text: out, lines: { from, to, total } };
}
