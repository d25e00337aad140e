import { homedir } from 'node:os';
import { spawnSync } from 'node:child_process';
import { loadSettings } from '../config/load.ts';
import { collectHooks, missingPrograms } from '../hooks/config.ts';
import { resolveModel } from '../providers/resolve.ts';
import { ripgrepPath } from '../tools/rg.ts';

type Out = (s: string) => void;

/**
 * `assistant doctor`: checks Node, settings, hooks, the model configuration and the tools, and
 * prints what is wrong with the fix. Exit 0 when all is well, 1 otherwise. Sends nothing to a model.
 */
export async function doctorCommand(argv: string[], out: Out = (s) => { process.stdout.write(s); }): Promise<number> {
  const cwd = process.cwd();
  let problems = 0;
  const ok = (s: string) => out(`✓ ${s}\n`);
  const bad = (s: string) => { problems++; out(`✗ ${s}\n`); };
  const warn = (s: string) => out(`! ${s}\n`);

  const [major, minor] = process.versions.node.split('.').map(Number);
  if (major > 22 || (major === 22 && minor >= 12)) ok(`Node ${process.versions.node}`);
  else bad(`Node ${process.versions.node} is too old: assistant needs Node 22.12 or newer`);

  const flag = argv[0] === '--settings' ? argv[1] : undefined;
  let env: Record<string, string> = {};
  let model: string | undefined;
  try {
    const settings = loadSettings(homedir(), cwd, flag, cwd);
    ok(`settings: ${settings.sources.length ? settings.sources.map((s) => s.file).join(', ') : 'none (defaults)'}`);
    for (const w of settings.warnings) warn(w);
    env = settings.merged.env ?? {};
    model = settings.merged.model;
    const { hooks, warnings } = collectHooks(settings.sources);
    for (const w of warnings) warn(w);
    const missing = missingPrograms(hooks, cwd, { ...process.env, ...env });
    for (const m of missing) bad(`hook: ${m}`);
    if (missing.length === 0) ok(`hooks: ${hooks.length} configured, every program found`);
  } catch (e) {
    bad((e as Error).message);
  }

  try {
    const m = await resolveModel({ spec: model, env: { ...process.env, ...env }, cwd });
    ok(`model: ${m.label}`);
  } catch (e) {
    bad((e as Error).message);
  }

  const rg = await ripgrepPath();
  const r = spawnSync(rg, ['--version'], { encoding: 'utf8' });
  if (r.status === 0) ok(`ripgrep: ${r.stdout.split('\n')[0]}`);
  else bad(`ripgrep (${rg}) does not run: ${r.error?.message ?? r.stderr}`);
  const bash = spawnSync('bash', ['-c', 'echo ok'], { encoding: 'utf8' });
  if (bash.stdout?.trim() === 'ok') ok('bash'); else bad('bash is not available: the Bash tool and hooks need it');

  out(problems ? `${problems} problem${problems > 1 ? 's' : ''} found.\n` : 'All good.\n');
  return problems ? 1 : 0;
}
