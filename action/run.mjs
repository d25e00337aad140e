// The GitHub Action's entry (action.yml, docs/ci.md): reads the inputs as GitHub passes them
// (INPUT_<NAME>), runs `assistant -p … --output-format json` (or `assistant recipes run N …`) in
// the workspace, writes the answer to the job summary ($GITHUB_STEP_SUMMARY) and the outputs
// ($GITHUB_OUTPUT), and exits with the run's code. Plain JavaScript, no dependencies: it runs from
// the action's checkout. ASSISTANT_BIN overrides the program (a .js file runs with this Node).
import { spawn } from 'node:child_process';
import { randomUUID } from 'node:crypto';
import { appendFileSync } from 'node:fs';
import { isAbsolute, resolve } from 'node:path';

/** An input as GitHub passes it to a node action (`INPUT_ALLOWED-TOOLS`), or with `_` for `-` as action.yml passes it (a name a shell can use). */
const input = (name) => {
  const key = `INPUT_${name.replace(/ /g, '_').toUpperCase()}`;
  return (process.env[key] ?? process.env[key.replace(/-/g, '_')] ?? '').trim();
};
/** Rules separated by commas or new lines; a comma inside parentheses does not split (SPEC §11.11). */
function rules(text) {
  const out = [];
  let depth = 0;
  let cur = '';
  for (const ch of text) {
    if (ch === '(') depth++;
    if (ch === ')') depth = Math.max(0, depth - 1);
    if ((ch === ',' || ch === '\n') && depth === 0) {
      if (cur.trim()) out.push(cur.trim());
      cur = '';
      continue;
    }
    cur += ch;
  }
  if (cur.trim()) out.push(cur.trim());
  return out;
}

function fail(message, code = 2) {
  process.stderr.write(`::error title=assistant::${message}\n`);
  finish({ code, result: message, isError: true });
}

/** The arguments of the run, from the inputs. */
function args() {
  const prompt = input('prompt');
  const recipe = input('recipe');
  if (!prompt && !recipe) return fail('Give the action a prompt or a recipe (with: prompt: "…" or recipe: N).');
  if (prompt && recipe) return fail('Give the action a prompt or a recipe, not both.');
  const a = recipe ? ['recipes', 'run', recipe] : ['-p', prompt];
  if (recipe) {
    for (const line of input('slots')
      .split('\n')
      .map((l) => l.trim())
      .filter(Boolean)) {
      if (line.startsWith('@')) a.push('--file', line.slice(1));
      else if (line.includes('=')) a.push('--set', line);
      else return fail(`slots: "${line}" is neither name=value nor @path.`);
    }
  } else if (input('slots')) return fail('slots fill a recipe: give recipe too, or write the values into the prompt.');
  const flag = (name, value) => {
    if (value) a.push(name, value);
  };
  flag('--model', input('model'));
  flag('--permission-mode', input('permission-mode'));
  flag('--verify', input('verify'));
  flag('--settings', input('settings'));
  flag('--max-turns', input('max-turns'));
  for (const r of rules(input('allowed-tools'))) a.push('--allowed-tools', r);
  for (const r of rules(input('disallowed-tools'))) a.push('--disallowed-tools', r);
  a.push('--output-format', 'json');
  return a;
}

/** Appends `name=value` to $GITHUB_OUTPUT, with a delimiter for text that may span lines. */
function output(name, value) {
  const file = process.env.GITHUB_OUTPUT;
  if (!file) return;
  const delimiter = `ghadelimiter_${randomUUID()}`;
  appendFileSync(file, `${name}<<${delimiter}\n${value}\n${delimiter}\n`);
}

function summary(r, what) {
  const file = process.env.GITHUB_STEP_SUMMARY;
  if (!file) return;
  const status = r.isError ? `❌ failed (exit ${r.code})` : '✅ done';
  const facts = [
    r.json?.num_turns !== undefined ? `${r.json.num_turns} model turns` : undefined,
    typeof r.json?.total_cost_usd === 'number' && r.json.total_cost_usd > 0 ? `$${r.json.total_cost_usd.toFixed(4)}` : undefined,
    r.json?.permission_denials?.length
      ? `${r.json.permission_denials.length} tool call${r.json.permission_denials.length === 1 ? '' : 's'} refused (${[...new Set(r.json.permission_denials.map((d) => d.tool_name))].join(', ')})`
      : undefined,
    r.json?.session_id ? `session ${r.json.session_id}` : undefined,
  ].filter(Boolean);
  appendFileSync(
    file,
    `### assistant: ${what} — ${status}\n\n${r.result || '_(no answer)_'}\n\n${facts.length ? `<sub>${facts.join(' · ')}</sub>\n\n` : ''}`,
  );
}

let described = 'run';
function finish(r) {
  summary(r, described);
  output('result', r.result ?? '');
  output('is-error', String(r.isError));
  output('exit-code', String(r.code));
  output('session-id', r.json?.session_id ?? '');
  output('num-turns', String(r.json?.num_turns ?? 0));
  output('cost-usd', String(r.json?.total_cost_usd ?? 0));
  output('permission-denials', String(r.json?.permission_denials?.length ?? 0));
  process.exit(r.code);
}

const argv = args();
described = input('recipe') ? `recipe ${input('recipe')}` : 'prompt';
const workspace = process.env.GITHUB_WORKSPACE || process.cwd();
const dir = input('working-directory') || '.';
const cwd = isAbsolute(dir) ? dir : resolve(workspace, dir);
const bin = process.env.ASSISTANT_BIN || 'assistant';
const [cmd, cmdArgs] = bin.endsWith('.js') || bin.endsWith('.mjs') ? [process.execPath, [bin, ...argv]] : [bin, argv];
// stdin closed: the run must not wait for piped input; stderr (progress, warnings) goes to the log.
const child = spawn(cmd, cmdArgs, { cwd, stdio: ['ignore', 'pipe', 'inherit'] });
let stdout = '';
child.stdout.on('data', (d) => {
  stdout += d;
});
child.on('error', (e) =>
  fail(
    `could not start ${bin}: ${e.message}${bin === 'assistant' ? ' (is assistant-code installed? the action installs it with npm)' : ''}`,
    1,
  ),
);
child.on('close', (code, signal) => {
  // The last JSON result printed (a recipe that executes its plan prints one per run).
  const json = stdout
    .trim()
    .split('\n')
    .reverse()
    .map((l) => {
      try {
        return JSON.parse(l);
      } catch {
        return undefined;
      }
    })
    .find((j) => j?.type === 'result');
  const exit = code ?? (signal ? 1 : 0);
  if (!json && stdout.trim()) process.stdout.write(stdout);
  finish({
    code: exit,
    json,
    result: json?.result ?? (exit === 0 ? stdout.trim() : `assistant exited with ${signal ?? exit}; see the log.`),
    isError: exit !== 0 || json?.is_error === true,
  });
});
