import { test } from 'node:test';
import assert from 'node:assert/strict';
import { buildSystemPrompt } from '../../src/context/system-prompt.ts';
import { toolSchemas, builtinTools } from '../../src/tools/registry.ts';

const facts = {
  cwd: '/home/dev/project',
  isGitRepo: true,
  platform: 'linux',
  shell: '/bin/bash',
  date: '2026-11-22',
  model: 'anthropic:claude-sonnet-4-5',
};

// Snapshots of what the model sees, so a prompt change is a reviewable diff.
// Update with: npm run test:unit -- --test-update-snapshots
test('system prompt (normal mode)', (t) => {
  t.assert.snapshot(buildSystemPrompt(facts, 'normal'));
});

test('system prompt states the mode and the environment facts', () => {
  const plan = buildSystemPrompt({ ...facts, isGitRepo: false }, 'plan');
  assert.match(plan, /Plan Mode: do not change anything/);
  assert.match(plan, /Is a git repository: no/);
  assert.match(plan, /Today's date: 2026-11-22/);
  assert.match(plan, /Working directory: \/home\/dev\/project/);
  assert.match(plan, /run the project's tests/);
});

test('tool schemas the model sees', (t) => {
  const schemas = toolSchemas(builtinTools);
  assert.deepEqual(
    schemas.map((s) => s.name),
    ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS'],
  );
  t.assert.snapshot(schemas);
});

test('assembled system prompt with ASSISTANT.md files', async (t) => {
  const { memorySection } = await import('../../src/context/memory.ts');
  const memory = memorySection([
    { path: '/home/dev/.assistant/ASSISTANT.md', scope: 'user', content: 'Answer in British English.' },
    { path: '/home/dev/project/ASSISTANT.md', scope: 'project', content: '# Conventions\n- Run `npm test` after each change.' },
  ]);
  t.assert.snapshot(buildSystemPrompt(facts, 'auto-accept', [memory]));
});
