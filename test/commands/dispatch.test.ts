import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { loadSetup } from '../../src/agent/setup.ts';
import { sessionDispatchContext, setupDispatchContext } from '../../src/agent/dispatch-context.ts';
import { dispatch } from '../../src/commands/dispatch.ts';
import { startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { openCtrl } from '../ui/helpers.ts';

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
});
after(async () => {
  await model.close();
});

const FILES = {
  '.assistant/commands/review.md':
    '---\ndescription: Review a file\nallowed-tools: Bash(echo:*)\nmodel: anthropic:claude-haiku-4-5\n---\nReview $1. Branch: !`echo BRANCH`\n',
  '.assistant/commands/rm.md': '---\nallowed-tools: Bash(echo:*)\n---\nGone: !`rm -rf build`\n',
  '.assistant/commands/bad.md': '---\nallowed-tools: [unclosed\n---\nBad.\n',
  '.assistant/settings.json': JSON.stringify({ permissions: { deny: ['Bash(rm:*)'] } }),
  'src/auth.ts': 'export {};\n',
};

const LINES = [
  'plain words',
  '/usr/bin/env x',
  '/project:review src/a.ts',
  '/review b',
  '/rm',
  '/init also tests',
  '/recipe 4 "module name=auth" src/auth.ts',
  '/recipe 99',
  '/recipes',
  '/help',
  '/compact keep the codeword',
  '/status',
  '/model x:y',
  '/clear',
  '/reviw',
  '/mcp__srv__prompt Paris',
];

test('the same typed line gives the same dispatch value in the terminal UI and in a headless run', async () => {
  const { ctrl, dir, home } = await openCtrl(model, FILES);
  // Headless reads the set-up before its session opens; the TUI dispatches inside its open session.
  const setup = loadSetup({ model: 'anthropic:claude-sonnet-4-5', addDir: [], allowedTools: [], disallowedTools: [] }, dir, home);
  const signal = AbortSignal.timeout(30_000);
  for (const line of LINES) {
    const tui = await dispatch(line, sessionDispatchContext(ctrl.session, ctrl.setup, signal));
    const headless = await dispatch(line, setupDispatchContext(setup, 'test-session', signal));
    assert.deepEqual(tui, headless, line);
  }
  const review = await dispatch('/project:review src/a.ts', sessionDispatchContext(ctrl.session, ctrl.setup, signal));
  assert.deepEqual(
    review.kind === 'prompt' && { prompt: review.prompt, grant: review.grant?.rules, model: review.model, shown: review.shown },
    {
      prompt: 'Review src/a.ts. Branch: BRANCH',
      grant: ['Bash(echo:*)'],
      model: 'anthropic:claude-haiku-4-5',
      shown: '/project:review src/a.ts',
    },
  );
  const rm = await dispatch('/rm', setupDispatchContext(setup, 'test-session', signal));
  assert.equal(rm.kind, 'error');
  assert.match(
    rm.kind === 'error' ? rm.message : '',
    /^\/rm: \/rm runs `rm -rf build` before the prompt is sent, but .*Bash\(rm:\*\)/s,
    'the deny rule of the settings holds for both',
  );
  const recipe = await dispatch('/recipe 4 "module name=auth" src/auth.ts', setupDispatchContext(setup, 'test-session', signal));
  assert.deepEqual(recipe.kind === 'prompt' && [recipe.recipe, recipe.mode], [4, 'plan']);
  assert.equal((await dispatch('/status', setupDispatchContext(setup, 'x', signal))).kind, 'ui');
  const unknown = await dispatch('/reviw', setupDispatchContext(setup, 'x', signal));
  assert.deepEqual(unknown, { kind: 'error', unknown: true, message: 'Unknown command /reviw. Did you mean /review?' });
  assert.equal(model.requests.length, 0, 'dispatching sends nothing');
  await ctrl.exit();
});
