import assert from 'node:assert/strict';
import { readdir, readFile, utimes, writeFile } from 'node:fs/promises';
import { join } from 'node:path';
import { test } from 'node:test';
import { editTool } from '../../src/tools/edit.ts';
import { readTool } from '../../src/tools/read.ts';
import type { ToolContext } from '../../src/tools/types.ts';
import { makeCtx, tempDir } from './helpers.ts';

async function readFixture(content: string, name = 'f.js'): Promise<{ dir: string; abs: string; ctx: ToolContext }> {
  const dir = await tempDir();
  const abs = join(dir, name);
  await writeFile(abs, content);
  const ctx = makeCtx(dir);
  const r = await readTool.execute({ file_path: abs }, ctx);
  assert.equal(r.isError, undefined);
  return { dir, abs, ctx };
}

const future = (abs: string) => utimes(abs, new Date(), new Date(Date.now() + 10_000));

test('Edit replaces a unique string and returns a short diff and a Claude-shaped response', async () => {
  const original = '// module 07\nconst VALUE = 7;\n\nexport function fn07(x) {\n  return x * VALUE;\n}\n';
  const { abs, ctx, dir } = await readFixture(original);
  const before: Array<string | null> = [];
  ctx.beforeChange = (_p, prev) => before.push(prev === null ? null : Buffer.from(prev).toString('utf8'));
  const r = await editTool.execute({ file_path: abs, old_string: 'const VALUE = 7;', new_string: 'const VALUE = 70;' }, ctx);
  assert.equal(r.isError, undefined, r.output);
  const updated = original.replace('= 7;', '= 70;');
  assert.equal(await readFile(abs, 'utf8'), updated);
  assert.match(r.output, /@@ -1,5 \+1,5 @@\n \/\/ module 07\n-const VALUE = 7;\n\+const VALUE = 70;/);
  assert.deepEqual(before, [original]);
  assert.deepEqual(r.response, {
    filePath: abs,
    oldString: 'const VALUE = 7;',
    newString: 'const VALUE = 70;',
    originalFile: original,
    structuredPatch: [
      {
        oldStart: 1,
        oldLines: 5,
        newStart: 1,
        newLines: 5,
        lines: [' // module 07', '-const VALUE = 7;', '+const VALUE = 70;', ' ', ' export function fn07(x) {', '   return x * VALUE;'],
      },
    ],
    userModified: false,
    replaceAll: false,
  });
  assert.equal(ctx.fileState.get(abs)?.content, updated);
  assert.deepEqual(await readdir(dir), ['f.js'], 'no temp files left behind');
  // The tool's own write does not make the next edit stale.
  const second = await editTool.execute({ file_path: abs, old_string: 'x * VALUE', new_string: 'x * VALUE + 1' }, ctx);
  assert.equal(second.isError, undefined, second.output);
});

test('Edit refuses a file that was not read', async () => {
  const dir = await tempDir();
  await writeFile(join(dir, 'a.txt'), 'a');
  const r = await editTool.execute({ file_path: 'a.txt', old_string: 'a', new_string: 'b' }, makeCtx(dir));
  assert.equal(r.isError, true);
  assert.equal(r.output, 'File has not been read yet. Read it first before editing it.');
});

test('Edit refuses a stale file, but allows one only touched', async () => {
  const { abs, ctx } = await readFixture('one\ntwo\n');
  await future(abs); // touched: same content, newer mtime
  const touched = await editTool.execute({ file_path: abs, old_string: 'one', new_string: 'uno' }, ctx);
  assert.equal(touched.isError, undefined, touched.output);

  await writeFile(abs, 'uno\ntwo\nthree added by the user\n');
  await future(abs);
  const stale = await editTool.execute({ file_path: abs, old_string: 'two', new_string: 'dos' }, ctx);
  assert.equal(stale.isError, true);
  assert.match(stale.output, /modified since it was last read.*Read it again/);
  assert.equal(await readFile(abs, 'utf8'), 'uno\ntwo\nthree added by the user\n');
  // After reading again the edit goes through.
  await readTool.execute({ file_path: abs }, ctx);
  const ok = await editTool.execute({ file_path: abs, old_string: 'two', new_string: 'dos' }, ctx);
  assert.equal(ok.isError, undefined, ok.output);
});

test('Edit refuses an old_string that occurs twice, and replace_all replaces both', async () => {
  const { abs, ctx } = await readFixture('let x = 1;\nlet y = x;\nlet x2 = 1;\n');
  const r = await editTool.execute({ file_path: abs, old_string: '= 1;', new_string: '= 2;' }, ctx);
  assert.equal(r.isError, true);
  assert.match(r.output, /Found 2 occurrences/);
  assert.match(r.output, /lines 1, 3/);
  assert.match(r.output, /replace_all/);
  const all = await editTool.execute({ file_path: abs, old_string: '= 1;', new_string: '= 2;', replace_all: true }, ctx);
  assert.equal(all.isError, undefined, all.output);
  assert.equal(await readFile(abs, 'utf8'), 'let x = 2;\nlet y = x;\nlet x2 = 2;\n');
  assert.match(all.output, /2 occurrences replaced/);
  assert.equal((all.response as { replaceAll: boolean }).replaceAll, true);
});

test('Edit says when old_string is not found, with a hint when only whitespace or quotes differ', async () => {
  const { abs, ctx } = await readFixture('function f() {\n\treturn "hi";\n}\n');
  const missing = await editTool.execute({ file_path: abs, old_string: 'return 42;', new_string: 'return 0;' }, ctx);
  assert.equal(missing.isError, true);
  assert.match(missing.output, /old_string was not found/);
  assert.doesNotMatch(missing.output, /would match/);
  const spaces = await editTool.execute({ file_path: abs, old_string: '    return \u201Chi\u201D;', new_string: '\treturn "bye";' }, ctx);
  assert.equal(spaces.isError, true);
  assert.match(spaces.output, /would match line 2 if whitespace and quote characters were ignored/);
  assert.match(spaces.output, /\treturn "hi";/);
  const numbered = await editTool.execute({ file_path: abs, old_string: '     2\treturn "hi";', new_string: 'x' }, ctx);
  assert.match(numbered.output, /line-number prefixes/);
  assert.equal(await readFile(abs, 'utf8'), 'function f() {\n\treturn "hi";\n}\n');
});

test('Edit refuses identical strings and an empty old_string on a non-empty file', async () => {
  const { abs, ctx } = await readFixture('content\n');
  const same = await editTool.execute({ file_path: abs, old_string: 'content', new_string: 'content' }, ctx);
  assert.equal(same.isError, true);
  assert.match(same.output, /exactly the same/);
  const empty = await editTool.execute({ file_path: abs, old_string: '', new_string: 'x' }, ctx);
  assert.equal(empty.isError, true);
  assert.match(empty.output, /old_string is empty/);
});

test('Edit with an empty old_string creates a missing file; a missing file otherwise is reported', async () => {
  const dir = await tempDir();
  const ctx = makeCtx(dir);
  const created = await editTool.execute({ file_path: 'new/file.txt', old_string: '', new_string: 'fresh\n' }, ctx);
  assert.equal(created.isError, undefined, created.output);
  assert.equal(await readFile(join(dir, 'new/file.txt'), 'utf8'), 'fresh\n');
  const missing = await editTool.execute({ file_path: 'nope.txt', old_string: 'a', new_string: 'b' }, ctx);
  assert.equal(missing.isError, true);
  assert.match(missing.output, /does not exist/);
});

test('Edit keeps CRLF line endings when old_string uses LF', async () => {
  const { abs, ctx } = await readFixture('a\r\nb\r\nc\r\n', 'win.txt');
  const r = await editTool.execute({ file_path: abs, old_string: 'a\nb', new_string: 'a\nB\nb2' }, ctx);
  assert.equal(r.isError, undefined, r.output);
  assert.equal(await readFile(abs, 'utf8'), 'a\r\nB\r\nb2\r\nc\r\n');
});

test('Edit treats $ patterns in new_string literally', async () => {
  const { abs, ctx } = await readFixture('price: X\n');
  await editTool.execute({ file_path: abs, old_string: 'X', new_string: "$& $' $1" }, ctx);
  assert.equal(await readFile(abs, 'utf8'), "price: $& $' $1\n");
});
