/** A settings problem the user must fix. The CLI prints it and exits 2. */
export class ConfigError extends Error {
  readonly exitCode = 2;
  constructor(
    readonly file: string,
    readonly line: number,
    readonly column: number,
    readonly problem: string,
    readonly fix: string,
  ) {
    super(`${file}:${line}:${column}: ${problem}\n  fix: ${fix}`);
  }
}

/** 1-based line and column of a character offset. */
export function lineColumn(text: string, offset: number): { line: number; column: number } {
  const before = text.slice(0, Math.max(0, Math.min(offset, text.length)));
  const lines = before.split('\n');
  return { line: lines.length, column: lines[lines.length - 1].length + 1 };
}

/** Where a JSON key path is written in the text (best effort: the last key's first occurrence after its parents). */
export function locatePath(text: string, path: PropertyKey[]): { line: number; column: number } {
  let from = 0;
  for (const key of path) {
    if (typeof key !== 'string') continue;
    const i = text.indexOf(JSON.stringify(key), from);
    if (i < 0) break;
    from = i;
  }
  return lineColumn(text, from);
}
