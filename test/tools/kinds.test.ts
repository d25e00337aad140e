import { test } from 'node:test';
import assert from 'node:assert/strict';
import { z } from 'zod';
import { decide } from '../../src/permissions/decide.ts';
import { noLookup } from '../../src/permissions/look.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { builtinTools } from '../../src/tools/registry.ts';
import { knownKinds, toolKinds } from '../../src/tools/kinds.ts';
import type { ToolAccess, ToolDef, ToolKinds } from '../../src/tools/types.ts';
import { groupTools, initialState, reduceEvent, type NewItem } from '../../src/ui/state.ts';

/**
 * A throw-away tool, defined and registered here only: permissions, Plan Mode, rules and the UI
 * know it by what its ToolDef declares, with no list of names anywhere to add it to.
 */
function probe(access: ToolAccess, family?: 'Read' | 'Edit'): ToolDef {
  return {
    name: 'Probe',
    description: 'Looks at a path.',
    schema: z.object({ path: z.string().optional() }),
    readOnly: access === 'read',
    access,
    ...(family ? { family, pathIs: 'dir' as const } : {}),
    execute: async () => ({ output: 'ok' }),
  };
}

/** The registry with the probe added: the one line a new tool needs. */
const registered = (def: ToolDef): ToolKinds => toolKinds([...builtinTools, def]);

function rules(allow: string[] = [], deny: string[] = []) {
  return buildRules([
    { kind: 'allow', rules: allow, source: 't' },
    { kind: 'deny', rules: deny, source: 't' },
  ]).rules;
}

const decideProbe = (kinds: ToolKinds, mode: PermissionMode, input: Record<string, unknown> = {}, r = rules()) =>
  decide('Probe', input, { mode, projectRoot: '/proj', additionalDirs: [], home: '/home/u', rules: r, look: noLookup, kinds });

test('Plan Mode refuses a tool that edits or executes and lets one that reads run', () => {
  for (const access of ['edit', 'execute', 'other'] as const) {
    const d = decideProbe(registered(probe(access)), 'plan');
    assert.equal(d.behavior, 'deny', access);
    assert.match(d.reason, /Plan Mode: Probe is refused/);
  }
  // Read-only with no rule family: runs in Plan Mode, asking like an MCP tool with readOnlyHint.
  assert.equal(decideProbe(registered(probe('read')), 'plan').behavior, 'ask');
  // A reader of files (the Read family): runs without asking inside the project, asks outside.
  const reader = registered(probe('read', 'Read'));
  assert.equal(decideProbe(reader, 'plan', { path: 'src' }).behavior, 'allow');
  assert.equal(decideProbe(reader, 'normal', { path: 'src' }).behavior, 'allow');
  const outside = decideProbe(reader, 'normal', { path: '/etc' });
  assert.equal(outside.behavior, 'ask');
  assert.equal(outside.remedy, '--add-dir /etc', 'pathIs dir: the directory itself is what to add');
  // A writer of files (the Edit family): Plan Mode refuses it, Auto-Accept accepts it inside the project.
  const writer = registered(probe('edit', 'Edit'));
  assert.equal(decideProbe(writer, 'plan', { path: 'src/a.ts' }).behavior, 'deny');
  assert.equal(decideProbe(writer, 'auto-accept', { path: 'src/a.ts' }).behavior, 'allow');
  assert.equal(decideProbe(writer, 'auto-accept', { path: '.git/config' }).behavior, 'ask', 'protected files ask');
});

test('rules naming the tool match it; a Read rule covers it only when it declares the Read family', () => {
  const plain = registered(probe('other'));
  assert.equal(decideProbe(plain, 'normal').behavior, 'ask');
  assert.equal(decideProbe(plain, 'normal', {}, rules(['Probe'])).behavior, 'allow');
  assert.equal(decideProbe(plain, 'normal', {}, rules(['Probe'], ['Probe'])).behavior, 'deny');

  const denyRead = rules([], ['Read(secret/**)']);
  const reader = registered(probe('read', 'Read'));
  const d = decideProbe(reader, 'normal', { path: 'secret/x' }, denyRead);
  assert.equal(d.behavior, 'deny');
  assert.equal(d.rule?.text, 'Read(secret/**)');
  assert.equal(decideProbe(reader, 'normal', { path: 'src' }, denyRead).behavior, 'allow');
  assert.equal(
    decideProbe(reader, 'normal', { path: 'secret/x' }, rules([], ['Probe(secret/**)'])).behavior,
    'deny',
    'its own path rules too',
  );
  // Not of the family: a Read rule does not name it.
  assert.equal(decideProbe(registered(probe('read')), 'normal', { path: 'secret/x' }, denyRead).behavior, 'ask');

  // Rules may name it once it is registered; before, they are warned about.
  const lists = [{ kind: 'allow' as const, rules: ['Probe', 'Probe(src/**)', 'Probe(../x)'], source: 't' }];
  assert.equal(buildRules(lists, { kinds: knownKinds, listed: [] }).warnings.filter((w) => /names no tool/.test(w)).length, 3);
  const known = buildRules(lists, { kinds: reader, listed: [] }).warnings;
  assert.deepEqual(known.length, 1, known.join('\n'));
  assert.match(known[0], /Probe\(\.\.\/x\).*never matches/, 'a Read-family tool takes path patterns');
});

test('a tool nobody registered is governed as strictly as before: asked, and refused in Plan Mode', () => {
  assert.equal(decideProbe(knownKinds, 'normal', { path: 'src' }).behavior, 'ask');
  assert.equal(decideProbe(knownKinds, 'auto-accept', { path: 'src' }).behavior, 'ask');
  assert.equal(decideProbe(knownKinds, 'plan', { path: 'src' }).behavior, 'deny');
  assert.equal(decideProbe(knownKinds, 'normal', { path: 'secret/x' }, rules(['Read'])).behavior, 'ask', 'a Read rule does not reach it');
});

test('the UI groups its calls when it reads files, and not otherwise', () => {
  const items = (): NewItem[] => [
    { kind: 'tool', name: 'Probe', input: {}, status: 'ok' },
    { kind: 'tool', name: 'Read', input: {}, status: 'ok' },
    { kind: 'tool', name: 'Grep', input: {}, status: 'ok' },
    { kind: 'assistant', text: 'x' },
  ];
  const grouped = groupTools(items(), registered(probe('read', 'Read')));
  assert.deepEqual(
    grouped.map((i) => i.kind),
    ['group', 'assistant'],
  );
  assert.equal(grouped[0].kind === 'group' && grouped[0].tools.length, 3);
  assert.deepEqual(
    groupTools(items(), registered(probe('edit', 'Edit'))).map((i) => i.kind),
    ['tool', 'group', 'assistant'],
  );
  assert.deepEqual(
    groupTools(items()).map((i) => i.kind),
    ['tool', 'group', 'assistant'],
    'unregistered: shown alone',
  );

  const live = (kinds: ToolKinds) => {
    let s = initialState({ mode: 'normal', model: 'm', window: 1000, cwd: '/p' });
    for (const id of ['a', 'b']) {
      s = reduceEvent(s, { type: 'tool-start', id, name: 'Probe', input: {} }, 1, kinds);
      s = reduceEvent(s, { type: 'tool-end', id, name: 'Probe', input: {}, result: { output: 'ok' }, durationMs: 1 }, 1, kinds);
    }
    s = reduceEvent(s, { type: 'text-delta', text: 'done\n\n' }, 1, kinds);
    return s.history.map((h) => h.kind);
  };
  assert.deepEqual(live(registered(probe('read', 'Read'))), ['group', 'assistant']);
  assert.deepEqual(live(registered(probe('execute'))), ['tool', 'tool', 'assistant']);
});
