import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const DIST = fileURLToPath(new URL('../../dist/', import.meta.url));
/** A string of the SDK's protocol code that survives minification. */
const SDK_MARKER = 'notifications/cancelled';

const text = (f: string) => readFileSync(join(DIST, f), 'utf8');
const staticImports = (src: string) => [...src.matchAll(/(?:from\s*|import\s*)"\.\/(chunk-[\w-]+\.js)"/g)].map((m) => m[1]);

test('the MCP SDK sits in a lazy chunk: start-up and a session without MCP never load it (npm run build first)', () => {
  const chunks = readdirSync(DIST).filter((f) => f.endsWith('.js'));
  const sdk = chunks.filter((f) => text(f).includes(SDK_MARKER));
  assert.ok(sdk.length > 0, 'the SDK is in the bundle');
  // What loading the entry loads: its static imports, transitively.
  const seen = new Set<string>();
  const visit = (f: string) => {
    if (seen.has(f)) return;
    seen.add(f);
    staticImports(text(f)).forEach(visit);
  };
  visit('assistant.js');
  assert.deepEqual(
    [...seen].filter((f) => sdk.includes(f)),
    [],
    'nothing at start-up loads the SDK',
  );
  // No chunk without the SDK pulls in one with it: the SDK is only ever reached through import().
  const pulling = chunks.filter((f) => !sdk.includes(f) && staticImports(text(f)).some((i) => sdk.includes(i)));
  assert.deepEqual(pulling, []);
  // The server half of the SDK (express, hono) is not bundled at all.
  assert.ok(!chunks.some((f) => /express|Hono/.test(text(f)) && text(f).includes(SDK_MARKER)));
});
