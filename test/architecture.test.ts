import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * DESIGN.md's dependency rule, as a lint: `cli | sdk → ui | headless → agent → providers, tools,
 * permissions, hooks, context, session, commands, recipes, sandbox, mcp, config → fs → text` (config
 * composes the features' schemas). Nothing below agent/ imports agent/, ui/, headless/ or cli/;
 * agent/ imports neither ui/, headless/ nor cli/. fs/ (paths, file reading and writing, diffs, edit
 * matching) is the floor under tools/, and text/ (did-you-mean) the floor under everything.
 */
const SRC = join(import.meta.dirname, '../src');
const LAYER: Record<string, number> = {
  cli: 5, sdk: 5, ui: 4, headless: 4, agent: 3,
  providers: 2, tools: 2, permissions: 2, hooks: 2, context: 2, session: 2, commands: 2, recipes: 2, sandbox: 2, mcp: 2, config: 2,
  fs: 1, process: 1, text: 0, // process/: the child-process runner (issue 21), a floor like fs/
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** Every relative import of src/, as [importing file, imported file], both relative to src/. */
function imports(): Array<[string, string]> {
  const out: Array<[string, string]> = [];
  for (const file of files(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.\.?\/[^']+)'/gm)) {
      out.push([relative(SRC, file), relative(SRC, join(file, '..', m[1]))]);
    }
  }
  return out;
}

const top = (p: string) => p.split('/')[0];

test('imports point one way: nothing below agent/ imports agent/, ui/, headless/ or cli/', () => {
  const bad: string[] = [];
  for (const [file, target] of imports()) {
    const from = top(file);
    const to = top(target);
    if (!(from in LAYER) || !(to in LAYER) || to === from) continue;
    const sameTier = LAYER[to] === LAYER[from] && LAYER[from] === LAYER.ui; // ui and headless stay apart
    if (LAYER[to] > LAYER[from] || sameTier) bad.push(`${file} imports ${target}`);
  }
  assert.deepEqual(bad, []);
});

test('every folder of src/ has a place in the layers', () => {
  const folders = readdirSync(SRC).filter((f) => statSync(join(SRC, f)).isDirectory());
  assert.deepEqual(folders.filter((f) => !(f in LAYER)), []);
});

test('context/ and ui/ use the file floor (fs/), not tools/', () => {
  const bad = imports().filter(([file, target]) => ['context', 'ui'].includes(top(file)) && top(target) === 'tools');
  assert.deepEqual(bad.map(([f, t]) => `${f} imports ${t}`), []);
});

test('config/ composes the features\' schemas: a feature it imports does not import config/ back', () => {
  const all = imports();
  const composed = new Set(all.filter(([f, t]) => top(f) === 'config' && top(t) !== 'config').map(([, t]) => top(t)));
  composed.delete('text');
  assert.ok(composed.has('hooks'), 'config/ composes hooks/schema.ts');
  const STILL_CIRCULAR = new Set(['mcp']); // mcp/ reads and writes settings files through config/ (to untangle)
  const bad = all.filter(([f, t]) => composed.has(top(f)) && !STILL_CIRCULAR.has(top(f)) && top(t) === 'config');
  assert.deepEqual(bad.map(([f, t]) => `${f} imports ${t}`), []);
});
