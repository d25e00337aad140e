import assert from 'node:assert/strict';
import { writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { z } from 'zod';
import { builtinTools, executeTool, getTool, toolSchemas, validateInput } from '../../src/tools/registry.ts';
import type { ToolContext, ToolDef, ToolResult } from '../../src/tools/types.ts';
import { makeCtx, tempDir } from './helpers.ts';

/** Validates, then runs, as agent/tool-call.ts does (without the permission seams). */
async function runTool(tool: ToolDef | string, rawInput: unknown, ctx: ToolContext): Promise<ToolResult> {
  const def = typeof tool === 'string' ? getTool(tool)! : tool;
  const v = validateInput(def, rawInput);
  return 'error' in v ? v.error : executeTool(def, v.input, ctx);
}

test('builtinTools are Read, Write, Edit, Bash, Grep, Glob, LS; only the searchers are read-only', () => {
  assert.deepEqual(
    builtinTools.map((t) => t.name),
    ['Read', 'Write', 'Edit', 'Bash', 'Grep', 'Glob', 'LS'],
  );
  assert.deepEqual(
    builtinTools.filter((t) => t.readOnly).map((t) => t.name),
    ['Read', 'Grep', 'Glob', 'LS'],
  );
  assert.equal(getTool('Edit')?.name, 'Edit');
  assert.equal(getTool('edit'), undefined);
  for (const t of builtinTools) assert.ok(t.description.length > 100, `${t.name} has a description`);
});

test('toolSchemas gives JSON Schema without $schema, with a description on every field', () => {
  const schemas = toolSchemas();
  assert.equal(schemas.length, 7);
  for (const s of schemas) {
    assert.equal(s.inputSchema.$schema, undefined);
    assert.equal(s.inputSchema.type, 'object');
    for (const [name, prop] of Object.entries(s.inputSchema.properties as Record<string, { description?: string }>)) {
      assert.ok(prop.description, `${s.name}.${name} has a description`);
    }
  }
  const read = schemas.find((s) => s.name === 'Read')!;
  assert.deepEqual(read.inputSchema.required, ['file_path']);
  assert.deepEqual((read.inputSchema.properties as Record<string, unknown>).offset, {
    description: '1-based line number to start reading at (0 means 1). Only needed for files too long to read at once.',
    type: 'integer',
    minimum: 0,
  });
  const grep = schemas.find((s) => s.name === 'Grep')!;
  assert.deepEqual((grep.inputSchema.properties as Record<string, { enum?: string[] }>).output_mode.enum, [
    'content',
    'files_with_matches',
    'count',
  ]);
  assert.deepEqual(grep.inputSchema.required, ['pattern']);
});

test('runTool names a missing field and a wrongly typed one, and lists the parameters', async () => {
  const dir = await tempDir();
  const missing = await runTool('Read', {}, makeCtx(dir));
  assert.equal(missing.isError, true);
  assert.match(missing.output, /^Invalid input for Read:\n- file_path: required, but missing/);
  assert.match(missing.output, /- file_path \(string, required\): The file to read/);
  assert.match(missing.output, /- offset \(integer, optional\)/);
  const wrong = await runTool('Bash', { command: 'true', timeout: 'soon' }, makeCtx(dir));
  assert.equal(wrong.isError, true);
  assert.match(wrong.output, /- timeout: expected number, received string/);
  const badEnum = await runTool('Grep', { pattern: 'x', output_mode: 'lines' }, makeCtx(dir));
  assert.match(badEnum.output, /- output_mode: .*"content"/);
});

test('runTool coerces harmless variants and ignores unknown fields', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'f.txt'), 'a\nb\nc\n');
  const r = await runTool('Read', { file_path: 'f.txt', offset: '2', limit: '1', limit_reason: 'junk' }, makeCtx(dir));
  assert.equal(r.isError, undefined, r.output);
  assert.match(r.output, /^     2\tb\n/);
  const json = await runTool('Read', '{"file_path": "f.txt", "offset": null}', makeCtx(dir));
  assert.match(json.output, /^     1\ta/);
  const notJson = await runTool('Read', '{file_path:', makeCtx(dir));
  assert.match(notJson.output, /not valid JSON/);
});

test('runTool turns a thrown exception into an error result and honours an aborted signal', async () => {
  let ran = false;
  const boom: ToolDef = {
    name: 'Boom',
    description: 'explodes',
    schema: z.object({}),
    readOnly: true,
    async execute() {
      ran = true;
      throw new Error('kaput');
    },
  };
  const dir = await tempDir();
  const r = await runTool(boom, {}, makeCtx(dir));
  assert.deepEqual(r, { output: 'Tool Boom failed: kaput', isError: true });
  ran = false;
  const ac = new AbortController();
  ac.abort();
  const aborted = await runTool(boom, {}, makeCtx(dir, { signal: ac.signal }));
  assert.equal(aborted.isError, true);
  assert.match(aborted.output, /interrupted/);
  assert.equal(ran, false);
});

test('filePath gives the absolute path a call concerns', () => {
  assert.equal(getTool('Read')!.filePath!({ file_path: 'src/a.ts' }, '/proj'), '/proj/src/a.ts');
  assert.equal(getTool('Edit')!.filePath!({ file_path: '/etc/hosts', old_string: 'a', new_string: 'b' }, '/proj'), '/etc/hosts');
  assert.equal(getTool('Bash')!.filePath, undefined);
});
