/**
 * Takes screenshots of the terminal UI: the built CLI under tmux against the fake model, a short
 * scripted session (an answer in Markdown, a Read, an Edit that asks). Writes, into OUT_DIR,
 * `*.ansi` (capture-pane -e) and `*.svg`, and `*.png` when ImageMagick's `convert` is installed.
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
const { dir, home } = makeProject({ 'src/math.ts': 'export function add(a: number, b: number) {\n  return a - b;\n}\n' });
model.script(
  reply().text("I'll look at `add` first.").tool('Read', { file_path: 'src/math.ts' }),
  reply().text('`add` subtracts. Fixing it:').tool('Edit', { file_path: 'src/math.ts', old_string: '  return a - b;', new_string: '  return a + b;' }),
  reply().text('Fixed. `add` now returns the **sum**:\n\n```ts\nexport function add(a: number, b: number) {\n  return a + b;\n}\n```\n\n- Run `npm test` to confirm.\n- No other caller relied on the old behaviour.').usage({ input: 3400, output: 120 }),
);
const t = TmuxCli.start(['--model', 'anthropic:claude-sonnet-4-5'], {
  cwd: dir, home, width: 100, height: 40,
  env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl, NO_COLOR: undefined, COLORTERM: 'truecolor' },
});
const shot = (name: string) => {
  const ansi = t.screen(true);
  writeFileSync(join(out, `${name}.ansi`), ansi);
  const svg = join(out, `${name}.svg`);
  writeFileSync(svg, ansiToSvg(ansi, { columns: 100, title: 'assistant — 100×40' }));
  try { execFileSync('convert', ['-density', '96', svg, join(out, `${name}.png`)], { stdio: 'ignore' }); } catch { /* no converter: the SVG stays */ }
};
try {
  await t.waitFor('normal mode');
  await t.submit('add() gives wrong results, fix it');
  await t.waitFor('Do you want to proceed?');
  shot('permission-question');
  t.keys('1');
  await t.waitFor('No other caller');
  await t.waitGone(/Working…/);
  shot('answer');
} finally {
  t.close();
  await model.close();
}
console.log(`screenshots in ${out}`);
