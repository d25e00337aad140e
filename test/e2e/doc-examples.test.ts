/**
 * Every `assistant` command shown in README.md and docs/*.md runs here, against the built CLI and
 * the fake model server (ANTHROPIC_BASE_URL), in a throwaway project: a doc example that fails is a
 * failing test. Commands are taken from the Markdown itself:
 * - lines of fenced shell blocks that run `assistant` (or `npx assistant`);
 * - inline code spans that start with `assistant`, or with one of its subcommands (`recipes show 4`).
 * Synopses are made concrete: an optional `[--flag X]` is left out, a placeholder (EVENT, NAME,
 * JSON, FILE) gets a value, and a trailing `…` after `recipes run|chain N…` is filled with the
 * recipes' slots. A span with nothing to run (`assistant -p`, `recipes run N`) names a command:
 * it must be the start of one that runs here, or of one that cannot run in a test (SKIP, with why).
 * Other tools' commands (`npm ci`, `npm test`) are not the product's: CI runs those.
 */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import { spawn } from 'node:child_process';
import { chmodSync, mkdirSync, readdirSync, readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { reply, startFakeModel, type FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { library } from '../../src/recipes/load.ts';
import { cleanEnv } from './cli.ts';

const ROOT = new URL('../../', import.meta.url).pathname;
const FILES = [
  'README.md',
  ...readdirSync(join(ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`),
];

/** Commands that cannot run in a test, and why. Matched after the synopsis is made concrete. */
const SKIP: Record<string, string> = {
  assistant: 'the interactive session (tested under tmux: test/e2e/tui-*.test.ts)',
  'assistant "fix the failing test"': 'the interactive session with a first prompt (tmux tests)',
  'assistant -c': 'continues in the interactive session (tmux tests); `assistant -c -p …` runs here',
  'assistant -r': 'the interactive session picker (tmux tests)',
  'assistant -r ID': 'resumes in the interactive session (tmux tests); `-r ID -p …` is covered by test/e2e/headless.test.ts',
  'assistant --mcp-config servers.json':
    'the interactive session with MCP servers (tmux: test/e2e/tui-mcp.test.ts; --mcp-config headless: test/e2e/mcp-session.test.ts)',
};

/**
 * `assistant mcp …` examples add and start real servers (`npx -y` downloads, remote URLs): run
 * here, they would change the project every other example shares (`doctor` checks its servers).
 * test/e2e/mcp-cli.test.ts runs every mcp command against servers started on this machine.
 */
const SKIP_MCP = /^assistant mcp(?: |$)/;

/** Documented outcomes other than success: the doc shows the mistake the command catches. */
const EXIT: Record<string, number> = {
  'assistant -p --allowed-tools Read "fix the bug"': 2,
};

const SUBCOMMAND = /^(?:recipes|templates|advise|rules|prompt lint|hooks|doctor)(?:\s|$)/;
const PLACEHOLDERS: Record<string, string> = {
  EVENT: 'PreToolUse',
  NAME: 'Bash',
  JSON: `'{"command":"ls"}'`,
  FILE: 'extra-settings.json',
  MODE: 'plan',
};

interface Example {
  where: string;
  text: string;
}

/** The `assistant` commands of one Markdown file, as written. */
function examples(file: string): Example[] {
  const out: Example[] = [];
  let fence: string | undefined;
  readFileSync(join(ROOT, file), 'utf8')
    .split('\n')
    .forEach((line, i) => {
      const where = `${file}:${i + 1}`;
      const f = /^\s*(```+)(\w*)/.exec(line);
      if (f) {
        fence = fence === undefined ? f[2] : undefined;
        return;
      }
      if (fence !== undefined) {
        if (!['', 'sh', 'bash', 'shell', 'console'].includes(fence)) return;
        const cmd = line
          .replace(/^\s*\$ /, '')
          .replace(/\s{2,}#.*$/, '')
          .trim();
        if (/(?:^|&&\s*|\|\s*)(?:npx )?assistant(?![\w-])/.test(cmd)) out.push({ where, text: cmd });
        return;
      }
      for (const m of line.matchAll(/`([^`]+)`/g)) {
        const span = m[1].trim();
        if (/^(?:npx )?assistant(?![\w-])/.test(span) || (SUBCOMMAND.test(span) && !/[.:]$/.test(span))) out.push({ where, text: span });
      }
    });
  return out;
}

/** The command to run, or `name` when the text only names a command. */
function concrete(text: string): { run?: string; name?: string } {
  // `npm ci && npx assistant …`: the assistant's part (the other tools' commands are CI's).
  let cmd = text
    .replace(/^.*&&\s*(?=(?:npx )?assistant(?![\w-]))/, '')
    .replace(/^npx assistant(?![\w-])/, 'assistant')
    .replace(/\|\s*npx assistant(?![\w-])/g, '| assistant');
  if (!/^assistant\b/.test(cmd) && SUBCOMMAND.test(cmd) && !cmd.includes('assistant')) cmd = `assistant ${cmd}`;
  // Optional parts are left out, but for `[--tool NAME]`: the tool events (EVENT is PreToolUse) need it.
  cmd = cmd.replace(/ \[(--tool [A-Z]+)\]/g, ' $1').replace(/ \[(?:--[^\]]*|[A-Z]+)\]/g, '');
  cmd = cmd.replace(/\b[A-Z]{2,}\b(?=(?:[^"']*["'][^"']*["'])*[^"']*$)/g, (w) => PLACEHOLDERS[w] ?? w);
  const fill = /^(assistant recipes (?:run|chain)((?: \d+)+)) …$/.exec(cmd);
  if (fill) cmd = `${fill[1]} ${slotFlags(fill[2].trim().split(' ').map(Number))}`;
  // Nothing to run: no argument beyond the command's own words, or a placeholder left.
  const args = cmd
    .replace(/^assistant\b/, '')
    .replace(/^ (?:recipes|templates|hooks|prompt)(?: (?:show|use|run|chain|save|list|test|lint))?/, '')
    .replace(/^ (?:advise|rules|doctor)/, '');
  if (/\b[A-Z]{1,}\b(?=(?:[^"']*["'][^"']*["'])*[^"']*$)/.test(args.replace(/\b(?:PreToolUse|Bash|Read)\b/g, '')) || /(?:^| )…$/.test(cmd))
    return { name: cmd.replace(/ (?:\b[A-Z]+\b|…).*$/, '') };
  if (
    /^ *$/.test(args) &&
    !['assistant recipes', 'assistant templates', 'assistant rules', 'assistant doctor', 'assistant hooks list'].includes(cmd)
  )
    return { name: cmd };
  if (/^ -[a-z]$/.test(args) || /\w\|\w/.test(args.replace(/(["']).*?\1/g, ''))) return { name: cmd.replace(/\|\S*/g, '') }; // `run|chain`: a synopsis
  return { run: cmd };
}

/** `--set "slot=x"` for every slot without a default, and `--file` for an @<path> slot. */
function slotFlags(numbers: number[]): string {
  const recipes = numbers.map((n) => library().recipes.find((r) => r.number === n)!);
  const slots = [...new Set(recipes.flatMap((r) => r.slots.filter((s) => !(s in r.defaults))))];
  return [...slots.map((s) => `--set "${s}=example ${s}"`), ...(recipes.some((r) => r.fileSlot) ? ['--file src/auth.ts'] : [])].join(' ');
}

let model: FakeModel;
before(async () => {
  model = await startFakeModel();
  model.onRequest(() => reply('OK.'));
});
after(async () => {
  await model.close();
});

function run(cmd: string, cwd: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; out: string }> {
  return new Promise((resolve) => {
    const child = spawn('bash', ['-c', cmd], { cwd, env, stdio: ['ignore', 'pipe', 'pipe'] });
    let out = '';
    child.stdout.on('data', (d) => {
      out += d;
    });
    child.stderr.on('data', (d) => {
      out += d;
    });
    child.on('close', (code) => resolve({ code, out }));
  });
}

test('every assistant command in README.md and docs/*.md runs as documented', async () => {
  const { dir, home } = makeProject({
    'src/auth.ts': 'export function login(user: string) {\n  return user.length > 0;\n}\n',
    'src/a.ts': 'export const a = 1;\n',
    'src/api.ts': 'export function handle(body: unknown) {\n  return body;\n}\n',
    'examples/demo-replay.json': readFileSync(join(ROOT, 'examples/demo-replay.json'), 'utf8'),
    '.assistant/commands/review.md': '---\ndescription: Review a file\n---\nReview $ARGUMENTS.\n',
    'package.json': '{"name":"demo","private":true,"scripts":{"test":"echo \\"1 failing\\"; exit 1"}}\n',
    'extra-settings.json': '{}\n',
    // A refactor under way: the files a chain passes on (recipe 9 reads plan.md, 14 review.md).
    'plan.md': '# Plan\n- Batch 1 | status: todo | files: src/auth.ts | change: split login\n',
    'review.md': '# Review\nNo blockers.\n',
    'f.json': '{}\n',
  });
  // `assistant` and `npx assistant` on PATH are the built CLI, started as npm starts it (bin/).
  const bin = join(home, 'bin');
  mkdirSync(bin);
  writeFileSync(join(bin, 'assistant'), `#!/bin/sh\nexec "${process.execPath}" "${join(ROOT, 'bin/assistant.js')}" "$@"\n`);
  chmodSync(join(bin, 'assistant'), 0o755);
  const env = cleanEnv(home, {
    PATH: `${bin}:${join(ROOT, 'node_modules/.bin')}:${process.env.PATH}`,
    ANTHROPIC_API_KEY: 'test-key',
    ANTHROPIC_BASE_URL: model.anthropicBaseUrl,
    npm_config_update_notifier: 'false',
  });

  const all = FILES.flatMap(examples);
  const runs = new Map<string, string[]>();
  const names: Example[] = [];
  for (const e of all) {
    const c = concrete(e.text);
    if (c.name !== undefined) {
      names.push({ where: e.where, text: c.name });
      continue;
    }
    if (c.run! in SKIP || SKIP_MCP.test(c.run!)) continue;
    runs.set(c.run!, [...(runs.get(c.run!) ?? []), e.where]);
  }
  assert.ok(runs.size >= 20, `only ${runs.size} commands found`);

  // Independent runs two at a time; those that continue a session after them, in order.
  const failures: string[] = [];
  const check = async (cmd: string) => {
    const r = await run(cmd, dir, env);
    const want = EXIT[cmd] ?? 0;
    if (r.code !== want)
      failures.push(
        `${runs.get(cmd)!.join(', ')}: ${cmd}\n    exit ${r.code}, documented ${want}\n    ${r.out.trim().split('\n').slice(-6).join('\n    ')}`,
      );
  };
  const first = [...runs.keys()].filter((c) => !/ -[cr]\b/.test(c));
  const later = [...runs.keys()].filter((c) => / -[cr]\b/.test(c));
  const queue = [...first];
  await Promise.all(
    [0, 1].map(async () => {
      for (let c = queue.shift(); c !== undefined; c = queue.shift()) await check(c);
    }),
  );
  for (const c of later) await check(c);
  assert.deepEqual(failures, []);

  // A name must be the start of a command that runs here, or of one that cannot.
  const known = [...runs.keys(), ...Object.keys(SKIP)];
  const unknown = names.filter((n) => !SKIP_MCP.test(n.text) && !known.some((k) => k === n.text || k.startsWith(`${n.text} `)));
  assert.deepEqual(
    unknown.map((n) => `${n.where}: ${n.text}`),
    [],
  );
});
