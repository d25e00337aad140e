import { test } from 'node:test';
import assert from 'node:assert/strict';
import { loadAgents, agentsText } from '../../src/agent/agents.ts';
import { makeProject } from '../fakes/project.ts';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';

const KNOWN = ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS', 'Task', 'TodoWrite', 'WebFetch'];

test('built-ins, then user agents, then project agents (a later name wins)', () => {
  const { dir, home } = makeProject({ '.assistant/agents/explore.md': '---\ndescription: My explorer\n---\nExplore my way.\n' });
  mkdirSync(join(home, '.assistant', 'agents'), { recursive: true });
  writeFileSync(
    join(home, '.assistant', 'agents', 'mine.md'),
    '---\nname: helper\ndescription: Helps\ntools:\n  - Read\n  - Task\nmodel: inherit\n---\nHelp.\n',
  );
  const { agents, problems, notices } = loadAgents({ projectRoot: dir, home, known: KNOWN });
  assert.deepEqual(problems, []);
  assert.deepEqual(notices, []);
  assert.deepEqual(
    agents.map((a) => `${a.name}:${a.source}`),
    ['general-purpose:built-in', 'explore:project', 'helper:user'],
  );
  const helper = agents.find((a) => a.name === 'helper')!;
  assert.deepEqual(helper.tools, ['Read'], 'Task is left out: depth 1');
  assert.equal(helper.model, undefined, 'inherit is the session model');
  assert.equal(agents.find((a) => a.name === 'explore')!.tools, undefined, 'a project agent replaces the built-in whole');
});

test('bad front matter is reported with file and line; the rest of the file still loads', () => {
  const { dir, home } = makeProject({
    '.assistant/agents/a.md': '---\nname: two words\ndescription: [unclosed\n---\nBody.\n',
    '.assistant/agents/b.md': '---\ndescription: Fine\n---\n',
    '.assistant/agents/c.md': '---\ntools: Read\n---\n# Checker\nChecks things.\n',
  });
  const { agents, problems } = loadAgents({ projectRoot: dir, home, known: KNOWN });
  const a = join(dir, '.assistant/agents/a.md');
  assert.ok(
    problems.some((p) => p.startsWith(`${a}:2: name must be one word`)),
    problems.join('\n'),
  );
  assert.ok(
    problems.some((p) => p.startsWith(`${a}:3:`)),
    problems.join('\n'),
  );
  assert.ok(problems.some((p) => /b\.md: the agent has no system prompt/.test(p)));
  assert.ok(problems.some((p) => /c\.md: no "description"/.test(p)));
  assert.equal(agents.find((x) => x.name === 'c')!.description, 'Checker');
  assert.ok(!agents.some((x) => x.name === 'b'));
  assert.match(agentsText(agents, problems), /Problems:\n {2}\//);
});

test('.claude/agents is read only when there is no .assistant/agents, with a notice', () => {
  const { dir, home } = makeProject({ '.claude/agents/r.md': '---\ndescription: R\n---\nR.\n' });
  const first = loadAgents({ projectRoot: dir, home, known: KNOWN });
  assert.ok(first.agents.some((a) => a.name === 'r'));
  assert.match(first.notices[0], /\.claude\/agents/);
  mkdirSync(join(dir, '.assistant', 'agents'), { recursive: true });
  const second = loadAgents({ projectRoot: dir, home, known: KNOWN });
  assert.ok(!second.agents.some((a) => a.name === 'r'));
  assert.deepEqual(second.notices, []);
});

test('an agent file as Claude Code writes it (a description with ": " in it, unquoted) loads whole', () => {
  const desc =
    'Use this agent after code changes. Examples: <example>Context: the user wrote code. user: "review it" assistant: "I will use the reviewer"</example>';
  const { dir, home } = makeProject({
    '.claude/agents/reviewer.md': `---\nname: code-reviewer\ndescription: ${desc}\ntools: Read, Grep\nmodel: inherit\ncolor: blue\n---\nYou review code.\n`,
  });
  const { agents, problems } = loadAgents({ projectRoot: dir, home, known: KNOWN });
  assert.deepEqual(problems, []);
  const a = agents.find((x) => x.name === 'code-reviewer')!;
  assert.ok(a, agents.map((x) => x.name).join());
  assert.equal(a.description, desc);
  assert.deepEqual(a.tools, ['Read', 'Grep'], 'its tools are kept, not lost with the broken line');
});

test('an agent whose tools line cannot be read is not loaded, rather than getting every tool', () => {
  const { dir, home } = makeProject({
    '.assistant/agents/ro.md': '---\nname: ro\ndescription: "unclosed\ntools: Read, Grep\n---\nRead only.\n',
  });
  const { agents, problems } = loadAgents({ projectRoot: dir, home, known: KNOWN });
  assert.equal(
    agents.find((a) => a.name === 'ro'),
    undefined,
  );
  assert.ok(
    problems.some((p) => /ro\.md:4: .*not loaded/.test(p)),
    problems.join('\n'),
  );
});
