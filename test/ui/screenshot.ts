/**
 * Takes screenshots of the terminal UI: the built CLI under tmux against the fake model, a short
 * scripted session (a search and two reads grouped, an Edit that asks, an answer in Markdown, the
 * Ctrl-O detail view, a long prompt being typed). Writes, into OUT_DIR, `tui-*.ansi` (capture-pane
 * -e) and `tui-*.svg`, and `tui-*.png` when librsvg's `rsvg-convert` (Debian: librsvg2-bin) or
 * ImageMagick's `convert` is installed (rsvg-convert draws the text better).
 *
 *   npm run build && node --import tsx --import ./test/md-loader.mjs test/ui/screenshot.ts OUT_DIR
 */
import { execFileSync } from 'node:child_process';
import { mkdirSync, writeFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { reply, startFakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { TmuxCli } from '../e2e/tmux.ts';
import { ansiToSvg } from './ansi-svg.ts';

const out = resolve(process.argv[2] ?? 'screenshots');
mkdirSync(out, { recursive: true });
const model = await startFakeModel();
const { dir, home } = makeProject({
  'src/math.ts': 'export function add(a: number, b: number) {\n  return a - b;\n}\n',
  'src/index.ts': "import { add } from './math';\n\nconsole.log(add(2, 3));\n",
  'test.sh':
    'for f in math index parse format render; do echo "✓ $f.test.ts (12 tests) 40ms"; done\necho "… running the slow suite"\nsleep 30\n',
});
model.script(
  reply().text("I'll look at `add` and where it is used.").tool('Grep', { pattern: 'add\\(' }),
  reply().tool('Read', { file_path: 'src/math.ts' }),
  reply().tool('Read', { file_path: 'src/index.ts' }),
  reply()
    .text('`add` subtracts. Fixing it:')
    .tool('Edit', { file_path: 'src/math.ts', old_string: '  return a - b;', new_string: '  return a + b;' }),
  reply()
    .text(
      [
        'Fixed. `add` now returns the **sum**:',
        '',
        '```ts',
        'export function add(a: number, b: number) {',
        '  return a + b;',
        '}',
        '```',
        '',
        '> `src/index.ts` is the only caller; it printed `-1` for `add(2, 3)` and now prints `5`.',
        '',
        '1. Run `npm test` to confirm.',
        '2. No other caller relied on the old behaviour.',
      ].join('\n'),
    )
    .usage({ input: 3400, output: 120 }),
  reply().text('Running the tests.').tool('Bash', { command: 'sh test.sh' }),
);
const t = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], {
  cwd: dir,
  home,
  width: 100,
  height: 40,
  env: {
    ANTHROPIC_API_KEY: 'k',
    ANTHROPIC_BASE_URL: model.anthropicBaseUrl,
    OPENAI_API_KEY: 'k',
    OPENAI_BASE_URL: model.openaiBaseUrl,
    NO_COLOR: undefined,
    COLORTERM: 'truecolor',
  },
});
const shot = async (name: string) => {
  const ansi = t.screen(true);
  writeFileSync(join(out, `tui-${name}.ansi`), ansi);
  const svg = join(out, `tui-${name}.svg`);
  writeFileSync(svg, ansiToSvg(ansi, { columns: 100, title: `assistant — 100×40 — ${t.title()}` }));
  const png = join(out, `tui-${name}.png`);
  try {
    execFileSync('rsvg-convert', ['-d', '96', '-p', '96', svg, '-o', png], { stdio: 'ignore' });
  } catch {
    try {
      execFileSync('convert', ['-density', '96', svg, png], { stdio: 'ignore' });
    } catch {
      // sharp (a dependency already) draws SVG with librsvg too.
      try {
        const { default: sharp } = await import('sharp');
        await sharp(svg, { density: 96 }).png().toFile(png);
      } catch {
        /* no converter: the SVG stays */
      }
    }
  }
};
try {
  await t.waitFor('normal mode');
  await t.submit('add() gives wrong results, fix it');
  await t.waitFor('Do you want to proceed?');
  await shot('permission');
  t.keys('1');
  await t.waitFor('No other caller');
  await t.waitGone(/Working…/);
  await shot('answer');
  t.keys('C-o');
  await t.waitFor('ctrl+o to fold');
  await t.waitFor('No other caller');
  await shot('detail');
  t.keys('C-o');
  await t.waitGone('ctrl+o to fold');
  t.type('the login page is broken again since yesterday, fix it — 你好, it worked before the big merge of the session changes');
  await t.waitFor('hint:');
  await shot('input');
  t.keys('C-u');
  await t.submit('run the tests');
  await t.waitFor('Do you want to proceed?');
  t.keys('1');
  await t.waitFor(/slow suite\n.*Running… \(\d+s · esc to interrupt\)/);
  await shot('bash-live');
  t.keys('Escape');
  await t.waitFor('Interrupted');
  t.type('/model');
  await t.waitFor('Switch the model');
  t.keys('Enter');
  await t.waitFor('Switch to which model?');
  await shot('model');
  t.keys('Escape');
} finally {
  t.close();
  await model.close();
}
console.log(`screenshots in ${out}`);
