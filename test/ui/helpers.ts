import { setTimeout as sleep } from 'node:timers/promises';
import { loadSetup } from '../../src/agent/setup.ts';
import { Controller } from '../../src/ui/controller.ts';
import { runSlash } from '../../src/ui/commands.ts';
import type { FakeModel } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';

/** A Controller on the fake model in a new temporary project (and HOME), its session open. */
export async function openCtrl(
  model: FakeModel,
  files: Record<string, string> = {},
  mode?: string,
  at?: { dir: string; home: string; resume?: { sessionId: string; path: string } },
): Promise<{ ctrl: Controller; dir: string; home: string }> {
  const { dir, home } = at ?? makeProject(files);
  const loaded = loadSetup(
    { model: 'anthropic:claude-sonnet-4-5', addDir: [], allowedTools: [], disallowedTools: [], permissionMode: mode },
    dir,
    home,
  );
  const setup = {
    ...loaded,
    resume: at?.resume ?? loaded.resume,
    env: { ...loaded.env, ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  };
  const ctrl = new Controller({ setup, version: 'test', idleMs: 0 });
  ctrl.slash = runSlash;
  await ctrl.open();
  return { ctrl, dir, home };
}

/** Polls until `get` gives a truthy value (or fails after `ms`). */
export async function until<T>(get: () => T | undefined, ms = 20_000): Promise<T> {
  const end = Date.now() + ms;
  for (;;) {
    const v = get();
    if (v) return v;
    if (Date.now() > end) throw new Error('timed out');
    await sleep(10);
  }
}

/** The text of every output and notice item, joined. */
export const shown = (ctrl: Controller) =>
  ctrl.store
    .get()
    .history.filter((i) => i.kind === 'output' || i.kind === 'notice')
    .map((i) => (i as { text: string }).text)
    .join('\n---\n');

/** Answers the select question now open with the option whose label matches. */
export async function pick(ctrl: Controller, title: RegExp, label: RegExp): Promise<void> {
  const q = await until(() => {
    const x = ctrl.store.get().question;
    return x?.kind === 'select' && title.test(x.title) ? x : undefined;
  });
  if (q.kind !== 'select') return;
  const o = q.options.find((x) => label.test(x.label));
  if (!o) throw new Error(`no option ${label} in ${q.options.map((x) => x.label).join(' | ')}`);
  q.answer(o.value);
}
