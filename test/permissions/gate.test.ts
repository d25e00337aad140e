import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readFileSync } from 'node:fs';
import { addLocalAllowRules } from '../../src/config/local-rules.ts';
import { SettingsSchema } from '../../src/config/schema.ts';
import { SystemInitLine } from '../../src/headless/stream-schema.ts';
import {
  CLAUDE_MODE_NAMES,
  Gate,
  MODE_SPELLINGS,
  MODES,
  parseMode,
  SETTINGS_MODE_NAMES,
  type PermissionMode,
} from '../../src/permissions/gate.ts';
import { fsLookup, noLookup } from '../../src/permissions/look.ts';
import { decideByMode } from '../../src/permissions/modes.ts';
import { buildRules } from '../../src/permissions/rules.ts';
import { OptionsSchema } from '../../src/sdk/options.ts';
import { knownKinds } from '../../src/tools/kinds.ts';
import { makeProject } from '../fakes/project.ts';

const gate = (o: { mode?: PermissionMode; home?: string; dirs?: string[]; allow?: string[]; root?: string } = {}) =>
  new Gate({
    mode: o.mode ?? 'normal',
    projectRoot: o.root ?? '/proj',
    home: o.home ?? '/home/u',
    additionalDirs: o.dirs ?? [],
    rules: buildRules([{ kind: 'allow', rules: o.allow ?? [], source: 'test' }]).rules,
    look: o.root ? fsLookup : noLookup,
    kinds: () => knownKinds,
    saveAllow: () => {
      throw new Error('not saved in this test');
    },
  });

test("mode names: every accepted spelling parses to exactly one mode, and each mode to its own and Claude Code's names", () => {
  const want: Record<string, PermissionMode> = {
    plan: 'plan',
    normal: 'normal',
    'auto-accept': 'auto-accept',
    bypass: 'bypass',
    default: 'normal',
    acceptEdits: 'auto-accept',
    bypassPermissions: 'bypass',
    autoAccept: 'auto-accept',
    'accept-edits': 'auto-accept',
  };
  assert.deepEqual(Object.fromEntries(MODE_SPELLINGS.map((s) => [s, parseMode(s)])), want);
  assert.equal(new Set(MODE_SPELLINGS).size, MODE_SPELLINGS.length, 'no spelling twice');
  assert.deepEqual(MODES, ['plan', 'normal', 'auto-accept', 'bypass']);
  for (const m of MODES) {
    assert.equal(parseMode(m), m);
    assert.equal(parseMode(CLAUDE_MODE_NAMES[m]), m);
    assert.equal(parseMode(`  ${m} `), m, 'blanks around are ignored');
  }
  for (const bad of ['yolo', 'Plan', 'accept', '', 'acceptedits']) assert.equal(parseMode(bad), undefined, bad);
});

test('mode names: the settings, SDK and stream-json schemas take the names of the one table', () => {
  assert.deepEqual(SETTINGS_MODE_NAMES, ['plan', 'normal', 'auto-accept', 'bypass', 'default', 'acceptEdits', 'bypassPermissions']);
  const settings = SettingsSchema.shape.permissions.unwrap().shape.defaultMode;
  const sdk = OptionsSchema.shape.permissionMode;
  const init = SystemInitLine.shape.permissionMode;
  for (const s of MODE_SPELLINGS) {
    const taken = SETTINGS_MODE_NAMES.includes(s);
    assert.equal(settings.safeParse(s).success, taken, `settings ${s}`);
    assert.equal(sdk.safeParse(s).success, taken, `SDK ${s}`);
  }
  for (const m of MODES) assert.ok(init.safeParse(CLAUDE_MODE_NAMES[m]).success, m);
  assert.equal(init.safeParse('normal').success, false, "system/init says Claude Code's name");
});

test("gate.decide: `~` is the injected home, never the process's", async () => {
  // The same call, two homes: inside an added directory only when `~` is that home.
  assert.equal((await gate({ home: '/home/u', dirs: ['/home/u'] }).decide('Read', { file_path: '~/notes.txt' })).behavior, 'allow');
  assert.equal((await gate({ home: '/elsewhere', dirs: ['/home/u'] }).decide('Read', { file_path: '~/notes.txt' })).behavior, 'ask');
  assert.equal(
    (await gate({ home: '/home/u', dirs: ['/home/u'], mode: 'auto-accept' }).decide('Edit', { file_path: '~/a.ts' })).behavior,
    'allow',
  );
  // The user's shell start-up files are protected where the injected home is.
  const rc = await gate({ home: '/home/u', dirs: ['/home/u'], mode: 'auto-accept' }).decide('Edit', { file_path: '~/.bashrc' });
  assert.equal(rc.behavior, 'ask');
  assert.equal(rc.firm, true);
  assert.equal(
    (await gate({ home: '/other', dirs: ['/home/u'], mode: 'auto-accept' }).decide('Edit', { file_path: '/home/u/.bashrc' })).behavior,
    'allow',
  );
  assert.equal(gate({ home: '/home/u' }).readBehavior('/home/u/x'), 'ask', '@path reads outside the workspace ask');
  // The mode table itself reads no environment: `~` there is the context's home too.
  const byMode = (home: string) =>
    decideByMode(
      'Read',
      { file_path: '~/x' },
      { mode: 'normal', projectRoot: '/proj', additionalDirs: ['/home/u'], home, kind: knownKinds.get('Read') },
    ).behavior;
  assert.equal(byMode('/home/u'), 'allow');
  assert.equal(byMode('/elsewhere'), 'ask');
});

test('gate: the mode changes the next decision; grants apply at once and their revocation takes exactly them away', async () => {
  const g = gate();
  assert.equal((await g.decide('Edit', { file_path: 'a.ts' })).behavior, 'ask');
  g.setMode('plan');
  assert.equal(g.mode, 'plan');
  assert.equal((await g.decide('Edit', { file_path: 'a.ts' })).behavior, 'deny');
  g.setMode('normal');
  const revoke = g.grant(['Edit(/a.ts)'], "a command's allowed-tools");
  const d = await g.decide('Edit', { file_path: 'a.ts' });
  assert.equal(d.behavior, 'allow');
  assert.equal(d.rule?.source, "a command's allowed-tools");
  const keep = g.grant(['Bash(make:*)'], 'other');
  revoke();
  assert.equal((await g.decide('Edit', { file_path: 'a.ts' })).behavior, 'ask');
  assert.deepEqual(
    g.rules.allow.map((r) => r.text),
    ['Bash(make:*)'],
  );
  keep();
  assert.throws(() => g.grant(['Bash(unclosed'], 'x'), /Bash\(unclosed/);
});

test('gate.allowAlways: the rule is saved to settings.local.json and decides the next call', async () => {
  const { dir } = makeProject();
  const saved: string[] = [];
  const g = new Gate({
    mode: 'normal',
    projectRoot: dir,
    home: '/home/u',
    additionalDirs: [],
    kinds: () => knownKinds,
    saveAllow: (rules) => {
      const f = addLocalAllowRules(dir, rules);
      saved.push(f);
      return f;
    },
  });
  assert.equal((await g.decide('Bash', { command: 'npm test' })).behavior, 'ask');
  const suggested = await g.suggest({ tool: 'Bash', input: { command: 'npm test && git status' } });
  assert.deepEqual(suggested, ['Bash(npm test:*)', 'Bash(git status:*)']);
  assert.deepEqual(await g.suggest({ tool: 'Bash', input: { command: 'npm test' }, firm: true }), [], 'no rule for a firm question');
  const file = g.allowAlways(['Bash(npm test:*)']);
  assert.equal(file, `${dir}/.assistant/settings.local.json`);
  assert.deepEqual(saved, [file]);
  assert.deepEqual(JSON.parse(readFileSync(file, 'utf8')).permissions.allow, ['Bash(npm test:*)']);
  const d = await g.decide('Bash', { command: 'npm test -- --watch' });
  assert.equal(d.behavior, 'allow');
  assert.equal(d.rule?.source, file);
  // Rules the user accepted with /hooks replace them all.
  g.replace(buildRules([]).rules, []);
  assert.equal((await g.decide('Bash', { command: 'npm test' })).behavior, 'ask');
});

test("gate.decide: the file lookups are injected; where a link leads is the lookup's answer", async () => {
  const asked: string[] = [];
  const look = {
    ...noLookup,
    realpath: (p: string) => {
      asked.push(p);
      return p === '/proj/link' ? '/proj/.env' : p;
    },
  };
  const g = new Gate({
    mode: 'bypass',
    projectRoot: '/proj',
    home: '/home/u',
    additionalDirs: [],
    look,
    kinds: () => knownKinds,
    saveAllow: () => '',
    rules: buildRules([{ kind: 'deny', rules: ['Read(.env)'], source: 'test' }]).rules,
  });
  assert.equal((await g.decide('Read', { file_path: 'link' })).behavior, 'deny');
  assert.ok(asked.includes('/proj/link'));
  assert.equal((await g.decide('Read', { file_path: 'other' })).behavior, 'allow');
  assert.equal(g.readDenied('Read', '/proj/link'), true);
});
