import { test } from 'node:test';
import assert from 'node:assert/strict';
import * as ed from '../../src/ui/editor.ts';
import { wellFormed } from '../../src/agent/well-formed.ts';

type Op = 'left' | 'right' | 'backspace' | 'del' | 'word' | 'home' | 'end';
const apply = (b: ed.Buffer, op: Op): ed.Buffer =>
  ({
    left: ed.left,
    right: ed.right,
    backspace: ed.backspace,
    del: ed.del,
    word: ed.deleteWord,
    home: ed.lineStart,
    end: ed.lineEnd,
  })[op](b);

/** No half of a surrogate pair anywhere. */
const whole = (s: string) => !/[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/.test(s);

const FAMILY = '👨‍👩‍👧‍👦';
const THUMB = '👍🏽';
const E_ACUTE = 'e\u0301';
const FLAG = '🇫🇷';

// [what, text typed, keys, text after, text before the cursor after]
const table: Array<[string, string, Op[], string, string]> = [
  ['x🎉y, ←, Backspace', 'x🎉y', ['left', 'backspace'], 'xy', 'x'],
  ['an emoji with a skin tone is one character', `a${THUMB}b`, ['left', 'backspace'], 'ab', 'a'],
  ['a ZWJ family is one character', `a${FAMILY}b`, ['left', 'left', 'right'], `a${FAMILY}b`, `a${FAMILY}`],
  ['Backspace deletes a whole family', `${FAMILY}${FAMILY}`, ['backspace'], FAMILY, FAMILY],
  ['Delete deletes a whole family', `a${FAMILY}`, ['home', 'right', 'del'], 'a', 'a'],
  ['a letter with a combining accent is one character', `caf${E_ACUTE}!`, ['left', 'backspace'], 'caf!', 'caf'],
  ['two combining marks stay with their letter', `xa\u0300\u0323y`, ['left', 'left', 'del'], 'xy', 'x'],
  ['a flag is one character', `${FLAG}${FLAG}`, ['left', 'backspace'], FLAG, ''],
  ['CJK: one character at a time', '你好世界', ['left', 'backspace'], '你好界', '你好'],
  ['CJK: Ctrl-W deletes a word, not the whole run', '我们 你好世界', ['word'], '我们 你好', '我们 你好'],
  ['Ctrl-W deletes a word ending in an emoji whole', `say hi${THUMB}`, ['word'], 'say ', 'say '],
  ['Ctrl-W twice', 'one two three', ['word', 'word'], 'one ', 'one '],
  ['Hangul syllables (precomposed and jamo)', '한\u1100\u1161글', ['left', 'backspace'], '한글', '한'],
];

test('grapheme editing: every move and deletion steps over whole characters (emoji, skin tones, ZWJ, accents, flags, CJK)', () => {
  for (const [what, text, ops, after, before] of table) {
    let b = ed.insert(ed.emptyBuffer(), text);
    for (const op of ops) {
      b = apply(b, op);
      assert.ok(whole(b.text.slice(0, b.cursor)) && whole(b.text.slice(b.cursor)), `${what}: the cursor splits no character after ${op}`);
    }
    assert.equal(b.text, after, what);
    assert.equal(b.text.slice(0, b.cursor), before, `${what}: the cursor`);
  }
});

test('no lone surrogate gets in: typed, pasted or sent', () => {
  assert.equal(ed.insert(ed.emptyBuffer(), 'a\uD83Cb').text, 'a\uFFFDb');
  assert.equal(ed.bufferOf('\uDF89x').text, '\uFFFDx');
  assert.equal(wellFormed('ok 🎉 \uD83D'), 'ok 🎉 \uFFFD');
  assert.equal(wellFormed('\uDE00🎉'), '\uFFFD🎉');
  assert.equal(ed.insert(ed.emptyBuffer(), 'a\x17b\x1bc\x00').text, 'abc', 'control characters are not text');
});

test('wrapping by display width: rows continue under the text, ↑/↓ move a row before they reach the history', () => {
  // 10 columns: 9 for text, the last for the caret.
  const rows = (t: string, w = 10) => ed.layout(t, w).map((r) => t.slice(r.start, r.end));
  assert.deepEqual(rows('hello world again'), ['hello ', 'world ', 'again']);
  assert.deepEqual(rows('abcdefghijklm'), ['abcdefghi', 'jklm'], 'a word longer than a row is cut');
  assert.deepEqual(rows('你好世界你好世界'), ['你好世界', '你好世界'], 'CJK takes two columns each');
  assert.deepEqual(rows(`${FAMILY}${FAMILY}${FAMILY}${FAMILY}${FAMILY}`), [`${FAMILY}${FAMILY}${FAMILY}${FAMILY}`, FAMILY]);
  assert.deepEqual(rows('one\ntwo'), ['one', 'two']);
  assert.deepEqual(rows(''), ['']);
  const text = 'hello world again';
  let b = ed.bufferOf(text);
  assert.deepEqual(ed.caret(ed.layout(text, 10), text, b.cursor), { row: 2, col: 5 });
  b = ed.up(b, 10)!;
  assert.equal(text.slice(0, b.cursor), 'hello world', '↑ moves up a row, to the same column');
  b = ed.up(b, 10)!;
  assert.equal(text.slice(0, b.cursor), 'hello');
  assert.equal(ed.up(b, 10), undefined, 'on the first row ↑ is for the history');
  b = ed.down(ed.down(b, 10)!, 10)!;
  assert.equal(b.cursor, 'hello world again'.length);
  assert.equal(ed.down(b, 10), undefined);
  // At a wrap the caret is drawn at the start of the next row, never past the width.
  assert.deepEqual(ed.caret(ed.layout(text, 10), text, 'hello '.length), { row: 1, col: 0 });
  const cjk = '你好世界你好';
  assert.equal(cjk.slice(0, ed.up(ed.bufferOf(cjk), 10)!.cursor), '你好', '↑ by display column in CJK');
});
