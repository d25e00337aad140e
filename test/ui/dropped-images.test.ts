import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdirSync, mkdtempSync, realpathSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { imageReferences, pastedPaths } from '../../src/ui/dropped-images.ts';

test('pasted paths are read the way terminals write a dragged file', () => {
  assert.deepEqual(pastedPaths('/a/shot.png'), ['/a/shot.png']);
  assert.deepEqual(pastedPaths("'/a/my shot.png' '/b/c.jpg'\n"), ['/a/my shot.png', '/b/c.jpg'], 'GNOME Terminal quotes');
  assert.deepEqual(pastedPaths('/a/my\\ shot.png /b/c.jpg'), ['/a/my shot.png', '/b/c.jpg'], 'iTerm2 and kitty escape blanks');
  assert.deepEqual(pastedPaths('"/a/x.gif"'), ['/a/x.gif']);
  assert.deepEqual(pastedPaths('file:///a/my%20shot.png'), ['/a/my shot.png']);
  assert.equal(pastedPaths("'/a/unclosed.png"), undefined);
  assert.equal(pastedPaths("'/a/x.png'tail"), undefined);
  assert.equal(pastedPaths('   '), undefined);
});

test('a paste of existing images only becomes @ references; anything else stays text', () => {
  const dir = realpathSync(mkdtempSync(join(tmpdir(), 'drop-')));
  mkdirSync(join(dir, 'shots'));
  writeFileSync(join(dir, 'shots', 'my shot.png'), 'x');
  writeFileSync(join(dir, 'b.jpg'), 'x');
  writeFileSync(join(dir, 'notes.txt'), 'x');
  const spaced = join(dir, 'shots', 'my shot.png');
  assert.deepEqual(imageReferences(`'${spaced}'`, '/elsewhere', '/home/u'), { text: `@'${spaced}' `, paths: [spaced] });
  assert.deepEqual(imageReferences(`${pathToFileURL(spaced).href} b.jpg`, dir, '/home/u'), {
    text: `@'${spaced}' @${join(dir, 'b.jpg')} `,
    paths: [spaced, join(dir, 'b.jpg')],
  });
  assert.equal(imageReferences(join(dir, 'notes.txt'), dir, '/home/u'), undefined, 'not an image');
  assert.equal(imageReferences(join(dir, 'gone.png'), dir, '/home/u'), undefined, 'no such file');
  assert.equal(
    imageReferences(`look at ${join(dir, 'b.jpg')}`, dir, '/home/u'),
    undefined,
    'words beside the path: a sentence, not a drop',
  );
  assert.equal(imageReferences(join(dir, 'shots'), dir, '/home/u'), undefined);
});
