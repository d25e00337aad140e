import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadSettings } from '../../src/config/load.ts';
import { buildRules, settingsRuleLists } from '../../src/permissions/rules.ts';
import { ruleTools } from '../../src/tools/kinds.ts';
import { builtinTools } from '../../src/tools/registry.ts';
import { makeProject } from '../fakes/project.ts';

test('rules know the tools the model gets, each by the kind it declares', () => {
  assert.deepEqual([...ruleTools.listed].sort(), builtinTools.map((t) => t.name).sort());
  for (const t of builtinTools) assert.ok(t.access, `${t.name} declares its access`);
});

test('a rule naming an unknown tool is a warning listing the tools, with a guess when close', () => {
  const { rules, errors, warnings } = buildRules(
    [{ kind: 'allow', rules: ['Frob', 'bash(ls:*)', 'Read', 'mcp__github__create_issue'], source: '--allowed-tools' }],
    ruleTools,
  );
  assert.deepEqual(errors, []);
  assert.equal(rules.allow.length, 4, 'still rules: a warning, not an error');
  assert.equal(warnings.length, 2);
  assert.match(
    warnings[0],
    /^--allowed-tools: rule "Frob" names no tool, so it never matches; tools: Read, Write, Edit, Bash, Grep, Glob, LS$/,
  );
  assert.match(
    warnings[1],
    /^--allowed-tools: rule "bash\(ls:\*\)" names no tool, so it never matches \(did you mean "Bash\(ls:\*\)"\?\); tools: Read/,
  );
});

test('rules from settings files are reported at their line and column', () => {
  const { dir, home } = makeProject({
    '.assistant/settings.json':
      '{\n  "permissions": {\n    "allow": [\n      "Read",\n      "Bash(touch"\n    ],\n    "deny": ["Frob"]\n  }\n}\n',
  });
  const settings = loadSettings(home, dir, undefined, dir);
  const built = buildRules(settingsRuleLists(settings.sources), ruleTools);
  const file = `${dir}/.assistant/settings.json`;
  assert.deepEqual(built.errors, [
    `${file}:5:7: "Bash(touch" is not a rule: write Tool or Tool(specifier), e.g. Bash(git:*) or Edit(src/**)`,
  ]);
  assert.equal(built.warnings.length, 1);
  assert.ok(built.warnings[0].startsWith(`${file}:7:14: rule "Frob" names no tool`), built.warnings[0]);
  assert.equal(built.rules.allow[0].source, file, "a rule's source stays the file, for denial messages");
});

test('a path rule the pattern library can never match is a warning; ./ is the project root', () => {
  const { warnings } = buildRules(
    [{ kind: 'deny', rules: ['Read(./.env)', 'Read(./secrets/**)', 'Edit(./src/**)', 'Read(../x)', 'Read(a/./b)'], source: 's' }],
    ruleTools,
  );
  assert.equal(warnings.length, 2);
  assert.match(warnings[0], /Read\(\.\.\/x\).*never matches/);
  assert.match(warnings[1], /Read\(a\/\.\/b\).*never matches/);
});
