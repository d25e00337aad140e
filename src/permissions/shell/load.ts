import { existsSync } from 'node:fs';
import { createRequire } from 'node:module';
import { fileURLToPath } from 'node:url';
import { Language, Parser } from 'web-tree-sitter';

/**
 * Where a .wasm file is: beside the running module first (the bundle: scripts/build.mjs copies
 * both files next to dist/assistant.js), else in node_modules (tests and `tsx` run from src/).
 */
function locate(file: string, packagePath: string): string {
  const beside = fileURLToPath(new URL(`./${file}`, import.meta.url));
  if (existsSync(beside)) return beside;
  return createRequire(import.meta.url).resolve(packagePath);
}

let loading: Promise<Parser> | undefined;
let ready: Parser | undefined;

/** Loads web-tree-sitter and the bash grammar once; concurrent callers share the same promise. */
export function loadBashParser(): Promise<Parser> {
  loading ??= (async () => {
    // V8 would otherwise hand the grammar's huge lexer to its optimising compiler after a few
    // parses, costing ~500 MiB and ~0.4 s; the baseline tier parses a command in microseconds.
    // Set here, not at start-up: any flag change makes Node's built-in code cache miss.
    (process.getBuiltinModule?.('node:v8') as typeof import('node:v8') | undefined)?.setFlagsFromString('--wasm-tiering-budget=1000000000');
    const runtime = locate('web-tree-sitter.wasm', 'web-tree-sitter/web-tree-sitter.wasm');
    await Parser.init({ locateFile: (name: string) => (name === 'web-tree-sitter.wasm' ? runtime : name) });
    const bash = await Language.load(locate('tree-sitter-bash.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm'));
    const parser = new Parser();
    parser.setLanguage(bash);
    ready = parser;
    return parser;
  })().catch((e: unknown) => {
    loading = undefined; // a later call may try again
    throw e;
  });
  return loading;
}

/** The loaded parser; throws if `loadBashParser` has not finished. */
export function bashParser(): Parser {
  if (!ready) throw new Error('the shell parser is not initialised: await initShellParser() first');
  return ready;
}
