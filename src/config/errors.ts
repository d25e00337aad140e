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
