import { test } from 'node:test';
import assert from 'node:assert/strict';
import { mkdtempSync, writeFileSync, linkSync, readFileSync, statSync, chmodSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { decodeText, detectEncoding, encodeText, NEW_FILE, readTextPage, type TextFormat } from '../../src/fs/text-file.ts';
import { writeFileAtomic } from '../../src/fs/atomic-write.ts';

const roundTrip = (bytes: Buffer) => {
  const d = decodeText(bytes);
  assert.ok(!('binary' in d), 'text');
  const e = encodeText(d.text, d.format);
  assert.ok('bytes' in e, 'encodable');
  return { ...d, back: e.bytes };
};

test('every byte but NUL survives a decode and encode of a non-UTF-8 file', () => {
  const all = Buffer.from(Array.from({ length: 255 }, (_, i) => i + 1));
  const r = roundTrip(all);
  assert.equal(r.format.encoding, 'windows-1252');
  assert.deepEqual(r.back, all);
  const d = decodeText(Buffer.from([0x93, 0x80, 0xe9, 0x94]));
  assert.equal('text' in d && d.text, '“€é”', 'shown as Windows-1252');
});

test('formats: what is detected, and that each comes back byte for byte', () => {
  const cases: Array<[string, Buffer, Partial<TextFormat>, string]> = [
    ['plain UTF-8', Buffer.from('héllo\nwörld\n'), { encoding: 'utf-8', bom: false, crlf: false }, 'héllo\nwörld\n'],
    ['UTF-8 with BOM', Buffer.from('\ufeffa\nb\n'), { encoding: 'utf-8', bom: true }, 'a\nb\n'],
    ['CRLF throughout: edited as LF', Buffer.from('a\r\nb\r\n'), { crlf: true }, 'a\nb\n'],
    ['mixed line endings: left as they are', Buffer.from('a\r\nb\nc\r\n'), { crlf: false }, 'a\r\nb\nc\r\n'],
    [
      'UTF-16 LE with BOM',
      Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('é\r\nz\r\n', 'utf16le')]),
      { encoding: 'utf-16le', bom: true, crlf: true },
      'é\nz\n',
    ],
    [
      'UTF-16 BE with BOM',
      Buffer.concat([Buffer.from([0xfe, 0xff]), Buffer.from('ab\n', 'utf16le').swap16()]),
      { encoding: 'utf-16be', bom: true },
      'ab\n',
    ],
    ['Latin-1', Buffer.from('na\xefve\n', 'latin1'), { encoding: 'windows-1252' }, 'naïve\n'],
    ['UTF-8 with one stray byte is not UTF-8', Buffer.concat([Buffer.from('é'), Buffer.from([0xff])]), { encoding: 'windows-1252' }, 'Ã©ÿ'],
  ];
  for (const [name, bytes, format, text] of cases) {
    const r = roundTrip(bytes);
    assert.equal(r.text, text, name);
    for (const [k, v] of Object.entries(format)) assert.equal(r.format[k as keyof TextFormat], v, `${name}: ${k}`);
    assert.deepEqual(r.back, bytes, `${name}: round trip`);
  }
  assert.deepEqual(decodeText(Buffer.from('a\0b')), { binary: true });
  assert.equal(
    detectEncoding(Buffer.from('abc é').subarray(0, 5), false) !== 'binary' &&
      (detectEncoding(Buffer.from('abc é').subarray(0, 5), false) as { encoding: string }).encoding,
    'utf-8',
    'a head cut inside a character is still UTF-8',
  );
});

test('new text the encoding cannot hold is reported, never replaced; LF becomes CRLF in a CRLF file', () => {
  const latin: TextFormat = { encoding: 'windows-1252', bom: false, crlf: false };
  assert.deepEqual(encodeText('a → b 😀 €', latin), { unencodable: ['→', '😀'] });
  assert.deepEqual(encodeText('x\ny\r\n', { ...NEW_FILE, crlf: true }), { bytes: Buffer.from('x\r\ny\r\n') });
});

test('a large non-UTF-8 file is paged in its own encoding', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'text-file-'));
  const file = join(dir, 'big.txt');
  const line = Buffer.from(`${'x'.repeat(100)} caf\xe9\n`, 'latin1');
  writeFileSync(file, Buffer.concat(Array.from({ length: 12_000 }, () => line)));
  const page = await readTextPage(file, statSync(file).size, 5, 2, new AbortController().signal);
  assert.equal(page.kind, 'text');
  if (page.kind === 'text') {
    assert.equal(page.whole, undefined, 'streamed, not read whole');
    assert.equal(page.format.encoding, 'windows-1252');
    assert.deepEqual(page.page.lines, [`${'x'.repeat(100)} café`, `${'x'.repeat(100)} café`]);
  }
});

test('writeFileAtomic: a file with several hard links is written in place, one with a single link is replaced', async () => {
  const dir = mkdtempSync(join(tmpdir(), 'atomic-'));
  const a = join(dir, 'a.txt');
  const b = join(dir, 'b.txt');
  const solo = join(dir, 'solo.txt');
  writeFileSync(a, 'old content that is longer\n');
  chmodSync(a, 0o640);
  linkSync(a, b);
  writeFileSync(solo, 'old\n');
  const [ia, is] = [statSync(a).ino, statSync(solo).ino];
  await writeFileAtomic(a, 'new\n');
  await writeFileAtomic(solo, 'new\n');
  assert.equal(readFileSync(b, 'utf8'), 'new\n', 'the other link sees the new content (shorter: truncated)');
  assert.equal(statSync(a).ino, ia);
  assert.equal(statSync(a).mode & 0o777, 0o640);
  assert.notEqual(statSync(solo).ino, is);
  assert.equal(readFileSync(solo, 'utf8'), 'new\n');
  const { readdirSync } = await import('node:fs');
  assert.deepEqual(readdirSync(dir).sort(), ['a.txt', 'b.txt', 'solo.txt'], 'no temp or backup file is left');
});
