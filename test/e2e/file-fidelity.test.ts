import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { linkSync, readFileSync, statSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { lastToolResults, reply, startFakeModel, toolResults, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const latin1 = Buffer.from('caf\xe9 cr\xe8me\nline two\nna\xefve \x93quoted\x94\n', 'latin1');
const crlf = 'one\r\ntwo\r\nthree\r\n';
const bom = '\ufeffhello\nworld\n';

test('Read names a file that is not UTF-8; Edit and Write keep its bytes, CRLF and BOM; hard links survive', async () => {
  const { dir, home } = makeProject();
  writeFileSync(join(dir, 'latin1.txt'), latin1);
  writeFileSync(join(dir, 'crlf.txt'), crlf);
  writeFileSync(join(dir, 'bom.txt'), bom);
  writeFileSync(join(dir, 'linked.txt'), 'shared v1\n');
  linkSync(join(dir, 'linked.txt'), join(dir, 'other-name.txt'));
  writeFileSync(join(dir, 'single.txt'), 'single v1\n');
  const inode = (f: string) => statSync(join(dir, f)).ino;
  const [linkedIno, singleIno] = [inode('linked.txt'), inode('single.txt')];
  model.reset();
  const read = reply();
  for (const f of ['latin1.txt', 'crlf.txt', 'bom.txt', 'linked.txt', 'single.txt']) read.tool('Read', { file_path: f });
  model.script(
    read,
    reply()
      .tool('Edit', { file_path: 'latin1.txt', old_string: 'line two', new_string: 'LINE TWO' })
      .tool('Edit', { file_path: 'crlf.txt', old_string: 'two\nthree', new_string: 'TWO\nthree\nfour' })
      .tool('Edit', { file_path: 'bom.txt', old_string: 'world', new_string: 'WORLD' })
      .tool('Edit', { file_path: 'linked.txt', old_string: 'v1', new_string: 'v2' })
      .tool('Write', { file_path: 'single.txt', content: 'single v2\n' }),
    reply()
      .tool('Edit', { file_path: 'latin1.txt', old_string: 'LINE TWO', new_string: 'LINE → TWO' })
      .tool('Write', { file_path: 'latin1.txt', content: 'caf\u00e9 \u201cnew\u201d\n' }),
    reply('Done.'),
  );
  const r = await runCli(['-p', 'fix the files', '--permission-mode', 'auto-accept', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: model.env(),
  });
  assert.equal(r.code, 0, r.stderr);

  const reads = toolResults(model.requests[1]);
  assert.match(reads[0].content, /café crème[\s\S]*naïve “quoted”/, 'Latin-1 shown decoded');
  assert.match(reads[0].content, /not UTF-8[^\n]*Windows-1252/);
  assert.doesNotMatch(reads[1].content + reads[2].content, /not UTF-8/, 'CRLF and a BOM are still UTF-8');
  const edits = lastToolResults(model.requests[2]);
  assert.deepEqual(
    edits.map((e) => /updated/.test(e.content)),
    [true, true, true, true, true],
    edits.map((e) => e.content).join('\n'),
  );
  const refused = lastToolResults(model.requests[3]);
  assert.match(refused[0].content, /Windows-1252 \(Latin-1\), which cannot hold "→" \(U\+2192\)\. Nothing was written/);

  // The last Write is in Windows-1252 like the file: “ ” become 0x93 0x94.
  assert.deepEqual(readFileSync(join(dir, 'latin1.txt')), Buffer.from('caf\xe9 \x93new\x94\n', 'latin1'));
  assert.equal(readFileSync(join(dir, 'crlf.txt'), 'utf8'), 'one\r\nTWO\r\nthree\r\nfour\r\n', 'CRLF kept, also for the new line');
  assert.equal(readFileSync(join(dir, 'bom.txt'), 'utf8'), '\ufeffhello\nWORLD\n', 'BOM kept');
  assert.equal(readFileSync(join(dir, 'other-name.txt'), 'utf8'), 'shared v2\n', 'the other hard link sees the edit');
  assert.equal(inode('linked.txt'), linkedIno, 'written in place');
  assert.equal(statSync(join(dir, 'linked.txt')).nlink, 2);
  assert.equal(readFileSync(join(dir, 'single.txt'), 'utf8'), 'single v2\n');
  assert.notEqual(inode('single.txt'), singleIno, 'a file with one link is still replaced atomically (temp file + rename)');
});

test('the first Edit of a Latin-1 file changes only its bytes; /rewind backups keep the bytes too', async () => {
  const { dir, home } = makeProject();
  writeFileSync(join(dir, 'latin1.txt'), latin1);
  model.reset();
  model.script(
    reply().tool('Read', { file_path: 'latin1.txt' }),
    reply().tool('Edit', { file_path: 'latin1.txt', old_string: 'line two', new_string: 'LINE TWO' }),
    reply('Done.'),
  );
  const r = await runCli(['-p', 'edit', '--permission-mode', 'auto-accept', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: model.env(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.deepEqual(readFileSync(join(dir, 'latin1.txt')), Buffer.from('caf\xe9 cr\xe8me\nLINE TWO\nna\xefve \x93quoted\x94\n', 'latin1'));
  const { restoreFiles } = await import('../../src/session/checkpoints.ts');
  const { listSessions, projectDir } = await import('../../src/session/transcript.ts');
  restoreFiles(listSessions(projectDir(home, dir))[0].path, 1);
  assert.deepEqual(readFileSync(join(dir, 'latin1.txt')), latin1, 'the backup restores the exact bytes');
});
