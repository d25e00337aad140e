import { test } from 'node:test';
import assert from 'node:assert/strict';
import { headlessPrinter, type HeadlessIO } from '../../src/headless/run.ts';

const retry = { type: 'retry' as const, attempt: 1, maxRetries: 5, delayMs: 3000, message: 'rate limited (HTTP 429)' };

test('a retry wait counts down on one line when stderr is a terminal, and the line ends at the next event', (t) => {
  t.mock.timers.enable({ apis: ['setInterval', 'Date'], now: 0 });
  let err = '';
  const io: HeadlessIO = {
    out: () => {},
    err: (s) => {
      err += s;
    },
    errIsTTY: true,
  };
  const printer = headlessPrinter('text', io, false, () => 's');
  printer.sink(retry);
  assert.equal(err, 'rate limited (HTTP 429); retrying in 3 s (attempt 1 of 5)');
  t.mock.timers.tick(1000);
  assert.match(err, /\r\x1b\[Krate limited \(HTTP 429\); retrying in 2 s/);
  t.mock.timers.tick(1000);
  assert.match(err, /retrying in 1 s \(attempt 1 of 5\)$/);
  printer.sink({ type: 'request', turn: 2 });
  assert.ok(err.endsWith('\n'));
  const before = err;
  t.mock.timers.tick(3000);
  assert.equal(err, before, 'the countdown stopped');
});

test('without a terminal a retry is one line with the wait in seconds', () => {
  let err = '';
  const printer = headlessPrinter(
    'text',
    {
      out: () => {},
      err: (s) => {
        err += s;
      },
    },
    false,
    () => 's',
  );
  printer.sink(retry);
  assert.equal(err, 'rate limited (HTTP 429); retrying in 3.0 s (attempt 1 of 5)\n');
});
