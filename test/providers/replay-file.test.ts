import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { loadReplay } from '../../src/providers/replay.ts';

const file = (text: string) => {
  const f = join(mkdtempSync(join(tmpdir(), 'replay-')), 'r.json');
  writeFileSync(f, text);
  return f;
};

test('a broken replay file is reported at its line and column, with the bad field named', () => {
  const syntax = file('{"turns": [\n  {"text": tru}\n]}');
  assert.throws(
    () => loadReplay(syntax),
    (e: Error) => /r\.json:2:12: not valid JSON: .*fix: /.test(e.message),
  );
  const shape = file('{"turns": [\n  {"text": "a", "tool_calls": [{"name": 5, "input": {}}]}\n]}');
  assert.throws(
    () => loadReplay(shape),
    (e: Error) => /r\.json:2:33: "turns\.0\.tool_calls\.0\.name": .*expected string/i.test(e.message),
  );
  assert.deepEqual(loadReplay(file('[{"text": "hi"}]')), [{ text: 'hi' }]);
});
