import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * One route from a typed line to the model (DESIGN.md, "the next step of the shape"): only the
 * dispatcher resolves and expands slash commands, and only the prompt runner sends a prompt, grants
 * a command's rules and swaps the model, for the terminal UI, headless mode and the SDK alike.
 */
const SRC = join(import.meta.dirname, '../../src');

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

const uses = (pattern: RegExp) =>
  files(SRC)
    .filter((f) => pattern.test(readFileSync(f, 'utf8')))
    .map((f) => relative(SRC, f))
    .sort();

test('only commands/dispatch.ts resolves and expands slash commands', () => {
  assert.deepEqual(uses(/import \{[^}]*\b(resolveSlash|expandCommand)\b[^}]*\} from/), ['commands/dispatch.ts']);
  assert.deepEqual(uses(/import \{[^}]*\bdispatch\b[^}]*\} from '[^']*commands\/dispatch\.ts'/), [
    'agent/headless-builtins.ts',
    'ui/commands.ts',
  ]);
});

test("only agent/run-prompt.ts sends a prompt, grants a command's rules or answers with another model", () => {
  assert.deepEqual(uses(/session!?\.(prompt|promptWith|expandReferences|gate\.grant)\(/), ['agent/run-prompt.ts']);
});
