import { test } from 'node:test';
import assert from 'node:assert/strict';
import { refusalSummary, refuseAsk, type HeadlessIO } from '../../src/headless/run.ts';

const GUARD = {
  tool: 'Bash',
  input: {},
  reason: '`echo x` may change .assistant/settings.json',
  remedy: 'make the change yourself, outside the assistant',
};
const RULE = { tool: 'Bash', input: {}, reason: '`touch a` is not allowed by any rule', remedy: '--allowed-tools "Bash(touch:*)"' };

test('a refusal names what would allow it in a sentence: a flag to run again with, or what to do', async () => {
  const ask = (req: object) => refuseAsk(req as Parameters<typeof refuseAsk>[0], new AbortController().signal);
  assert.match(((await ask(GUARD)) as { message: string }).message, /To allow it, make the change yourself, outside the assistant\.$/);
  assert.match(((await ask(RULE)) as { message: string }).message, /To allow it, run again with --allowed-tools "Bash\(touch:\*\)"\.$/);
  let err = '';
  const io: HeadlessIO = {
    out: () => {},
    err: (s) => {
      err += s;
    },
  };
  const summary = refusalSummary(refuseAsk);
  await summary.ask(GUARD as Parameters<typeof refuseAsk>[0], new AbortController().signal);
  await summary.ask(RULE as Parameters<typeof refuseAsk>[0], new AbortController().signal);
  summary.print(io, [{ tool_name: 'Bash' }, { tool_name: 'Bash' }]);
  assert.match(
    err,
    /To allow them, make the change yourself, outside the assistant, or run again with --allowed-tools "Bash\(touch:\*\)"\.\n$/,
  );
});

test('refusals that no question decided (a deny rule, Plan Mode, a hook) do not blame the headless run', () => {
  let err = '';
  const io: HeadlessIO = {
    out: () => {},
    err: (s) => {
      err += s;
    },
  };
  refusalSummary(refuseAsk).print(io, [{ tool_name: 'Bash' }]);
  assert.equal(err, '1 tool call was refused (Bash) by a deny rule, Plan Mode or a hook.\n');
  err = '';
  refusalSummary(refuseAsk).print(io, [{ tool_name: 'Bash' }, { tool_name: 'Write' }]);
  assert.equal(err, '2 tool calls were refused (Bash, Write) by a deny rule, Plan Mode or a hook.\n');
});
