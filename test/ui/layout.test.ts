import { test } from 'node:test';
import assert from 'node:assert/strict';
import { createElement as h } from 'react';
import { render } from 'ink-testing-library';
import { setTimeout as sleep } from 'node:timers/promises';
import { helpText } from '../../src/commands/help.ts';
import { Footer } from '../../src/ui/components/footer.tsx';
import { HistoryView } from '../../src/ui/components/history-view.tsx';
import { HINT_PAUSE_MS } from '../../src/ui/components/prompt-hints.ts';
import { PromptInput } from '../../src/ui/components/prompt-input.tsx';
import type { Controller } from '../../src/ui/controller.ts';
import { makeProject } from '../fakes/project.ts';
import { MODE_LABELS } from '../../src/ui/format.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';

const MODES: PermissionMode[] = ['normal', 'auto-accept', 'plan', 'bypass'];
const esc = (s: string) => s.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');

test('the footer: mode on the left and status on the right never touch, at 80 and 100 columns, in every mode', () => {
  // The App gives the footer the terminal's width less one column.
  for (const columns of [80, 100]) {
    for (const mode of MODES) {
      for (const model of ['anthropic:claude-sonnet-4-5', 'openai-compatible:qwen2.5-coder-32b-instruct-q4']) {
        const width = columns - 1;
        const frame = render(h(Footer, { mode, model, context: { used: 123_456, window: 200_000 }, costUsd: 0.0004, width })).lastFrame()!;
        const line = frame.split('\n').find((l) => l.includes(MODE_LABELS[mode].text))!;
        const where = `${mode} at ${columns} columns, ${model}: "${line}"`;
        assert.ok(line.length <= width, `fits: ${where}`);
        const m = new RegExp(
          `^  ${esc(MODE_LABELS[mode].icon)} ${esc(MODE_LABELS[mode].text)}( \\(shift\\+tab to cycle\\))?(?:( {2,})(\\S.*))?$`,
        ).exec(line);
        assert.ok(m, `the mode, then at least two spaces before the status: ${where}`);
        assert.match(m[3] ?? '', /ctx 62% .*\$0\.0004|^$/, `the status keeps context and cost: ${where}`);
      }
    }
  }
  const wide = render(
    h(Footer, {
      mode: 'bypass',
      model: 'anthropic:claude-sonnet-4-5',
      context: { used: 109, window: 200_000 },
      costUsd: 0.0004,
      width: 119,
    }),
  ).lastFrame()!;
  assert.match(
    wide,
    /bypass permissions on \(shift\+tab to cycle\) {2,}anthropic:claude-sonnet-4-5 · ctx 0% \(109\) · \$0\.0004/,
    'all of it when there is room',
  );
  const mid = render(
    h(Footer, {
      mode: 'bypass',
      model: 'anthropic:claude-sonnet-4-5',
      context: { used: 109, window: 200_000 },
      costUsd: 0.0004,
      width: 99,
    }),
  ).lastFrame()!;
  assert.match(mid, /bypass permissions on {2,}anthropic:claude-sonnet-4-5 · ctx 0% \(109\) · \$0\.0004/, 'the hint goes first');
});

test('/help at 80 columns: long descriptions wrap under their column (a hanging indent), not at column 2', () => {
  const text = helpText({ commands: [], shadowed: [], problems: [] } as never);
  const col = text.split('\n')[1].indexOf('List the built-in');
  const frame = render(h(HistoryView, { item: { kind: 'output', id: 1, text }, width: 79, cwd: '/p' })).lastFrame()!;
  const lines = frame.split('\n');
  assert.ok(
    lines.every((l) => l.length <= 79),
    'fits',
  );
  const i = lines.findIndex((l) => l.includes('/clear'));
  assert.match(lines[i + 1], new RegExp(`^ {${col + 2}}\\S`), `the rest of /clear's description under its column:\n${frame}`);
  assert.match(
    lines
      .slice(i, i + 2)
      .join(' ')
      .replace(/\s+/g, ' '),
    /Start a fresh conversation \(the transcript is kept on disk\)/,
  );
});

test('/status at 80 columns: a long transcript path continues under the value, whole', () => {
  const path = `/home/someone/.assistant/projects/-tmp-assistant-proj-AbCdEf/${'0123abcd-'.repeat(4)}0123.jsonl`;
  const text = ['Model:       anthropic:claude-sonnet-4-5', `Transcript:  ${path}`, 'Mode:        normal'].join('\n');
  const frame = render(h(HistoryView, { item: { kind: 'output', id: 1, text }, width: 79, cwd: '/p' })).lastFrame()!;
  const lines = frame.split('\n');
  assert.ok(
    lines.every((l) => l.length <= 79),
    'fits',
  );
  const i = lines.findIndex((l) => l.includes('Transcript:'));
  assert.match(lines[i + 1], /^ {15}\S/, `continues under the value:\n${frame}`);
  assert.equal(lines[i].slice(15) + lines[i + 1].trim(), path, 'nothing lost');
});

test('prompt-lint hints under the input: the finding on one line, the remedy wrapped whole below it', async () => {
  const { dir, home } = makeProject();
  const ctrl = { setup: { cwd: dir, home }, history: { all: [] }, touch() {}, hint() {}, submit: async () => {} } as unknown as Controller;
  const ui = render(h(PromptInput, { ctrl, busy: false, width: 60, active: true }));
  ui.stdin.write('Fix the login bug');
  for (let i = 0; i < 100 && !/hint:/.test(ui.lastFrame()!); i++) await sleep(HINT_PAUSE_MS / 10);
  const frame = ui.lastFrame()!;
  const lines = frame.replace(/\x1b\[[0-9;]*m/g, '').split('\n');
  assert.ok(
    lines.every((l) => l.length <= 60),
    `fits:\n${frame}`,
  );
  const flat = frame.replace(/\s+/g, ' ');
  assert.match(flat, /hint: a debugging prompt with no file, no line and no symptom/);
  assert.match(
    flat,
    /Name the file \(@<path>\) and line, and the exact symptom: the error message, or what you expected and what happened/,
    `the remedy whole:\n${frame}`,
  );
  ui.unmount();
});
