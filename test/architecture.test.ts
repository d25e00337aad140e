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
  cli: 5,
  sdk: 5,
  ui: 4,
  headless: 4,
  agent: 3,
  providers: 2,
  tools: 2,
  permissions: 2,
  hooks: 2,
  context: 2,
  session: 2,
  commands: 2,
  recipes: 2,
  sandbox: 2,
  mcp: 2,
  config: 2,
  fs: 1,
  process: 1,
  text: 0, // process/: the child-process runner (issue 21), a floor like fs/
};

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

/** Every relative import of src/, as [importing file, imported file], both relative to src/. */
function imports(): Array<[string, string]> {
  return typedImports().map(([file, target]) => [file, target]);
}

/** Every relative import of src/, with whether it is type-only (`import type`, `export type`: gone at run time). */
function typedImports(): Array<[string, string, 'type' | 'value']> {
  const out: Array<[string, string, 'type' | 'value']> = [];
  for (const file of files(SRC)) {
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)( type\b)?[^'"]*from '(\.\.?\/[^']+)'/gm)) {
      out.push([relative(SRC, file), relative(SRC, join(file, '..', m[2])), m[1] ? 'type' : 'value']);
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
  assert.deepEqual(
    folders.filter((f) => !(f in LAYER)),
    [],
  );
});

test('context/ and ui/ use the file floor (fs/), not tools/', () => {
  const bad = imports().filter(([file, target]) => ['context', 'ui'].includes(top(file)) && top(target) === 'tools');
  assert.deepEqual(
    bad.map(([f, t]) => `${f} imports ${t}`),
    [],
  );
});

test("config/ composes the features' schemas: a feature it imports does not import config/ back", () => {
  const all = imports();
  const composed = new Set(all.filter(([f, t]) => top(f) === 'config' && top(t) !== 'config').map(([, t]) => top(t)));
  composed.delete('text');
  assert.ok(composed.has('hooks'), 'config/ composes hooks/schema.ts');
  const STILL_CIRCULAR = new Set(['mcp']); // mcp/ reads and writes settings files through config/ (to untangle)
  const bad = all.filter(([f, t]) => composed.has(top(f)) && !STILL_CIRCULAR.has(top(f)) && top(t) === 'config');
  assert.deepEqual(
    bad.map(([f, t]) => `${f} imports ${t}`),
    [],
  );
});

/**
 * The front doors are thin (DESIGN.md "The next step of the shape"): ui/ and headless/ (and
 * cli/run-headless.ts, headless mode's entry) import behaviour only from agent/ (the session, the
 * prompt runner, and the modules that own transcripts, rewind, memory, models, modes, MCP waits)
 * and commands/ (the dispatcher), besides the floors fs/ and text/. A type-only import may also name
 * the shared data types they render: messages, usage and model handles, the permission mode and
 * rules, hook specs, transcript entries. Anything else goes through agent/ (no re-export shims:
 * the behaviour moves there).
 */
const FRONT_DOOR_VALUES = new Set(['agent', 'commands', 'fs', 'text']);
const SHARED_DATA_TYPES = new Set([
  'providers/types.ts',
  'permissions/modes.ts',
  'permissions/rules.ts',
  'hooks/schema.ts',
  'session/transcript.ts',
]);

/** The imports of ui/, headless/ and cli/run-headless.ts that break the front doors' rule. */
function frontDoorViolations(all: ReadonlyArray<[string, string, 'type' | 'value']>): string[] {
  const bad: string[] = [];
  for (const [file, target, kind] of all) {
    const from = top(file);
    const door = from === 'ui' || from === 'headless' || file === 'cli/run-headless.ts';
    if (!door) continue;
    const to = top(target);
    const own = to === from || (file === 'cli/run-headless.ts' && to === 'headless');
    if (own || FRONT_DOOR_VALUES.has(to) || (kind === 'type' && SHARED_DATA_TYPES.has(target))) continue;
    bad.push(`${file} imports ${kind === 'type' ? 'the type(s) of ' : ''}${target}`);
  }
  return bad;
}

test('ui/ and headless/ import only agent/, commands/, the floors and shared data types', () => {
  assert.deepEqual(frontDoorViolations(typedImports()), []);
});

test('the front-door rule catches a planted import (a value, and a type that is not shared data)', () => {
  const planted: Array<[string, string, 'type' | 'value']> = [
    ['ui/controller.ts', 'session/transcript.ts', 'value'],
    ['headless/format.ts', 'providers/catalogue.ts', 'value'],
    ['ui/complete.ts', 'mcp/manager.ts', 'type'],
    ['cli/run-headless.ts', 'permissions/gate.ts', 'value'],
    ['ui/replay.ts', 'session/transcript.ts', 'type'],
    ['cli/main.ts', 'config/load.ts', 'value'],
  ];
  assert.deepEqual(frontDoorViolations(planted), [
    'ui/controller.ts imports session/transcript.ts',
    'headless/format.ts imports providers/catalogue.ts',
    'ui/complete.ts imports the type(s) of mcp/manager.ts',
    'cli/run-headless.ts imports permissions/gate.ts',
  ]);
});
