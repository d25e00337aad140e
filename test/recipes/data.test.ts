import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync } from 'node:fs';
import { join } from 'node:path';
import { library } from '../../src/recipes/load.ts';
import { RECIPE_FILES, TEMPLATE_FILES } from '../../src/recipes/data/index.ts';
import { fillSlots } from '../../src/recipes/slots.ts';

const DATA = join(import.meta.dirname, '../../src/recipes/data');
const { recipes, templates } = library();
const byNumber = (n: number) => recipes.find((r) => r.number === n)!;

/** A value for every slot, so a rendered text can be checked for leftovers. */
function fillAll(body: string, slots: string[]) {
  return fillSlots(
    body,
    { set: Object.fromEntries(slots.map((s) => [s, `«${s}»`])), files: body.includes('@<path>') ? ['src/example.ts'] : [] },
    'test',
  );
}

test('the index lists every data file, and 40 recipes and 10 templates load', () => {
  const onDisk = (dir: string) =>
    readdirSync(join(DATA, dir))
      .filter((f) => f.endsWith('.md'))
      .map((f) => `${dir}/${f}`)
      .sort();
  assert.deepEqual(RECIPE_FILES.map((f) => f.file).sort(), onDisk('recipes'));
  assert.deepEqual(TEMPLATE_FILES.map((f) => f.file).sort(), onDisk('templates'));
  assert.deepEqual(
    recipes.map((r) => r.number),
    Array.from({ length: 40 }, (_, i) => i + 1),
  );
  assert.deepEqual(
    templates.map((t) => t.number),
    Array.from({ length: 10 }, (_, i) => i + 1),
  );
  for (const r of [...recipes, ...templates])
    assert.match(r.file, new RegExp(`/${String(r.number).padStart(2, '0')}-[a-z0-9-]+\\.md$`), r.file);
});

test('categories follow the source table', () => {
  const ranges: Array<[number, number, string]> = [
    [1, 3, 'Project setup'],
    [4, 7, 'Debugging'],
    [8, 11, 'Refactor and migration'],
    [12, 14, 'Review and release'],
    [15, 16, 'Documentation'],
    [17, 18, 'Testing'],
    [19, 20, 'Security'],
    [21, 40, 'Community'],
  ];
  for (const [from, to, cat] of ranges) for (let n = from; n <= to; n++) assert.equal(byNumber(n).category, cat, `recipe ${n}`);
});

test('every recipe and template renders with its slots filled and none left over', () => {
  for (const r of [...recipes, ...templates]) {
    const out = fillAll(r.body, r.slots);
    assert.ok(out.ok, `${r.file}: ${!out.ok ? out.error : ''}`);
    assert.doesNotMatch(out.text, /\[[a-z][a-z0-9 -]*\](?!\()/, `${r.file} has a slot left`);
    assert.ok(!out.text.includes('@<path>'), `${r.file} has @<path> left`);
    assert.ok(!/\[ \]|\]\(/.test(r.body), `${r.file}: no checkboxes or links in a template text`);
  }
});

test('rendered texts match their snapshots', (t) => {
  const all = [...recipes, ...templates].map((r) => ({ file: r.file, text: (fillAll(r.body, r.slots) as { text: string }).text }));
  t.assert.snapshot(all);
});

test('templates are one line and take a file, directory or function reference', () => {
  for (const t of templates) {
    assert.equal(t.body.split('\n').length, 1, t.file);
    assert.ok(t.fileSlot, `${t.file} has no @<path>`);
  }
  assert.deepEqual(
    templates.map((t) => t.name),
    ['explain', 'bugs', 'optimize', 'refactor', 'docs', 'tests', 'translate', 'security', 'config', 'readme'],
  );
});

test('the constants of the source appear where they apply', () => {
  const text = (n: number) => byNumber(n).body;
  assert.match(text(5), /\b2\b[^.\n]*fix attempts|at most (2|two)/i);
  assert.match(text(22), /50 characters/);
  for (const type of ['feat', 'fix', 'docs', 'style', 'refactor', 'perf', 'test', 'chore'])
    assert.match(text(22), new RegExp(`\\b${type}\\b`), `commit type ${type}`);
  for (const c of [/50 lines/, /300 lines/, /4 levels/, /5 parameters/]) assert.match(text(39), c);
  for (const c of ['🔴', '🟡', '🟢']) assert.ok(text(12).includes(c), `severity marker ${c}`);
  assert.match(text(7), /test_\[bug summary\]/);
  assert.match(text(19), /400/);
  assert.match(text(20), /httpOnly/);
  assert.match(text(20), /secure/);
});

test('recipes 8 → 9 → 12 → 14 pass their results on through files', () => {
  assert.ok(byNumber(8).writes.includes('plan.md'));
  assert.ok(byNumber(9).reads.includes('plan.md'));
  assert.ok(byNumber(12).writes.includes('review.md'));
  assert.ok(byNumber(14).reads.includes('review.md'));
  assert.match(byNumber(9).body, /@plan\.md/);
  assert.match(byNumber(14).body, /review\.md/);
  for (const n of [3, 12, 14, 16])
    assert.doesNotMatch(byNumber(n).body, /@(plan|review|ASSISTANT)\.md/, `recipe ${n} must run without the file of an earlier step`);
  for (const r of recipes)
    for (const f of r.reads)
      assert.ok(
        recipes.some((w) => w.writes.includes(f)) || /^(ASSISTANT\.md|package\.json|README\.md)$/.test(f),
        `${r.file} reads ${f}, which no recipe writes`,
      );
});

test('modes follow the risk table: high risk never runs in Auto-Accept', () => {
  for (const r of recipes) if (r.risk === 'high') assert.notEqual(r.mode, 'auto-accept', r.file);
  assert.equal(byNumber(4).mode, 'plan');
  assert.equal(byNumber(8).mode, 'plan');
});
