import type { RuleSet } from '../permissions/rules.ts';
import { checkSandbox } from './availability.ts';
import { sandboxConfig } from './config.ts';
import type { SandboxSettings } from './settings.ts';

interface DoctorLine {
  level: 'ok' | 'warn' | 'bad';
  text: string;
}

/**
 * The sandbox's state for `assistant doctor` (SPEC §13): on or off, whether it can run here (a
 * tiny sandbox is started to find out) and, when on, what it allows. A sandbox that is asked for
 * in settings and cannot run is a problem; one that is off and could not run is a note.
 */
export async function sandboxDoctor(o: {
  settings: SandboxSettings | undefined;
  projectRoot: string;
  home: string;
  additionalDirs: string[];
  rules: RuleSet;
  env: NodeJS.ProcessEnv;
}): Promise<DoctorLine[]> {
  const enabled = o.settings?.enabled === true;
  const avail = await checkSandbox(o.env);
  if (!avail.ok) {
    return [
      enabled
        ? { level: 'bad', text: `sandbox: sandbox.enabled is set, but it cannot run here: ${avail.problem}. To fix: ${avail.fix}` }
        : { level: 'warn', text: `sandbox: off, and it could not run here: ${avail.problem} (${avail.fix})` },
    ];
  }
  if (!enabled)
    return [{ level: 'ok', text: `sandbox: off (sandbox.enabled or --sandbox turns it on); bubblewrap ${avail.version} works here` }];
  const c = sandboxConfig({
    settings: o.settings,
    projectRoot: o.projectRoot,
    home: o.home,
    additionalDirs: o.additionalDirs,
    rules: o.rules,
  });
  const net = c.allowedDomains.length ? `network to ${c.allowedDomains.map((d) => d.text).join(', ')}` : 'no network';
  const auto = c.autoAllow
    ? 'Bash commands no rule asks about run without a question'
    : 'Bash commands ask as usual (autoAllowBashIfSandboxed is false)';
  return [
    {
      level: 'ok',
      text: `sandbox: on (bubblewrap ${avail.version}): writes in ${c.write.join(', ')} and a temp directory; ${net}; Unix sockets ${c.unixSockets ? 'allowed' : 'refused'}; ${auto}`,
    },
    ...c.problems.map((p): DoctorLine => ({ level: 'warn', text: p })),
  ];
}
