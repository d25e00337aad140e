import { ensureMemoryFile, memoryFileChoices } from '../agent/memory.ts';
import { modelStatusRows } from '../agent/model-choices.ts';
import { modeNamed, recipeModeName, selectableModes } from '../agent/modes.ts';
import { proposeReload } from '../agent/settings-reload.ts';
import { otherSessions } from '../agent/transcripts.ts';
import { dispatch, type Dispatch, type UiAction } from '../commands/dispatch.ts';
import { sessionDispatchContext } from '../agent/dispatch-context.ts';
import { commandModel } from '../agent/run-prompt.ts';
import { openInEditor } from '../commands/run-shell.ts';
import { agentsText } from '../agent/agent-defs.ts';
import type { Rule } from '../permissions/rules.ts';
import type { ModelHandle } from '../providers/types.ts';
import type { HookSpec } from '../hooks/schema.ts';
import type { Controller } from './controller.ts';
import { rewind } from './rewind.ts';
import { mcpCommand } from './mcp-command.ts';
import { modelCommand } from './model-switch.ts';
import { formatCost, formatTokens, MODE_LABELS, oneLine, shortPath } from './format.ts';

/** Keys the terminal UI understands, for /help. */
const KEYS_HELP = [
  'Keys:',
  '  Enter            send            \\ then Enter, Shift+Enter*, Alt+Enter   new line',
  '  ↑ / ↓            earlier prompts (kept per project)',
  '  / or @           a menu of commands or paths as you type: ↑/↓, Tab or Enter; Esc hides it',
  "  Ctrl-O           every tool call's output and thinking unfolded; again: folded     Ctrl-L   redraw",
  '  Shift+Tab        cycle mode: normal → accept edits → plan',
  '  Esc              interrupt the model or a tool      Esc Esc   /rewind',
  '  Ctrl-C           interrupt; on an empty line twice: quit      Ctrl-D   quit',
  '  * in terminals that report Shift+Enter (kitty, WezTerm, Ghostty, iTerm2 with CSI u, xterm modifyOtherKeys)',
].join('\n');

const out = (ctrl: Controller, text: string) => ctrl.add({ kind: 'output', text });
const typed = (ctrl: Controller, text: string) => ctrl.add({ kind: 'user', text });

/**
 * Runs a line typed at the prompt that starts with `/` (SPEC §6): the dispatcher says what it asks
 * for; here it is shown, sent, or answered with the terminal's pickers and editors.
 */
export async function runSlash(ctrl: Controller, text: string): Promise<void> {
  const d = await dispatch(text, sessionDispatchContext(ctrl.session, ctrl.setup, AbortSignal.timeout(60_000)));
  switch (d.kind) {
    case 'prompt':
      await prompt(ctrl, d, text);
      return;
    case 'error':
      typed(ctrl, text);
      ctrl.notice('error', d.unknown ? `${d.message} /help lists them.` : d.message);
      return;
    case 'print':
      typed(ctrl, text);
      out(ctrl, d.topic === 'help' ? `${d.text}\n\n${KEYS_HELP}` : d.text.trimEnd());
      return;
    case 'compact':
      typed(ctrl, text);
      await ctrl.compact(d.instructions);
      return;
    case 'ui':
      typed(ctrl, text);
      await builtin(ctrl, d.action, d.args);
      return;
  }
}

/**
 * A prompt the line became: a command's `model:` is set up first (nothing is sent when it cannot
 * be), a recipe switches to its mode (which the footer shows, SPEC §7), /init reads the memory again.
 */
async function prompt(ctrl: Controller, d: Extract<Dispatch, { kind: 'prompt' }>, text: string): Promise<void> {
  let model: ModelHandle | undefined;
  if (d.model) {
    const m = await commandModel(ctrl.setup, d.model);
    if ('error' in m) {
      typed(ctrl, text);
      ctrl.notice('error', `${d.of}: ${m.error} Nothing was sent.`);
      return;
    }
    model = m.model;
  }
  if (d.mode && d.mode !== ctrl.session.gate.mode) {
    ctrl.setMode(d.mode);
    ctrl.notice('info', `Recipe ${d.recipe} runs in ${recipeModeName(d.mode)}; Shift+Tab changes the mode.`);
  }
  await ctrl.prompt(d.prompt, { shown: d.shown, grant: d.grant, model, mcp: d.mcp });
  if (d.reloadMemory) ctrl.reloadMemory();
}

/** The built-ins of the terminal session. */
async function builtin(ctrl: Controller, action: UiAction, args: string): Promise<void> {
  switch (action) {
    case 'clear':
      await ctrl.clear();
      return;
    case 'memory':
      await memory(ctrl);
      return;
    case 'mode':
      await mode(ctrl, args);
      return;
    case 'permissions':
      out(ctrl, permissionsText(ctrl));
      return;
    case 'hooks':
      await hooks(ctrl);
      return;
    case 'mcp':
      await mcpCommand(ctrl, args);
      return;
    case 'agents':
      out(ctrl, agentsText(ctrl.session.subagents.agents));
      return;
    case 'cost':
      out(ctrl, costText(ctrl));
      return;
    case 'status':
      out(ctrl, statusText(ctrl));
      return;
    case 'model':
      await modelCommand(ctrl, args);
      return;
    case 'resume':
      await resume(ctrl, args);
      return;
    case 'rewind':
      await rewind(ctrl);
      return;
    case 'exit':
      await ctrl.exit();
      return;
  }
}

/** `/mode [name]`. Bypass only in a session started in it (as Shift+Tab): it is never switched on mid-session. */
async function mode(ctrl: Controller, args: string): Promise<void> {
  let chosen = args ? modeNamed(args, ctrl.startedInBypass) : undefined;
  if (chosen && 'error' in chosen) {
    ctrl.notice('error', chosen.error);
    return;
  }
  if (!chosen) {
    const modes = selectableModes(ctrl.startedInBypass);
    const v = await ctrl.choose(
      `Mode (now: ${ctrl.session.gate.mode})`,
      modes.map((m) => ({ label: m, value: m, hint: MODE_LABELS[m].text })),
      undefined,
      { initial: modes.indexOf(ctrl.session.gate.mode) },
    );
    chosen = v ? modeNamed(v, ctrl.startedInBypass) : undefined;
  }
  if (!chosen || 'error' in chosen) return;
  ctrl.setMode(chosen.mode);
  ctrl.notice('info', `Mode: ${chosen.mode} (${MODE_LABELS[chosen.mode].text})`);
}

const ruleLine = (r: Rule, cwd: string) => `  ${r.text.padEnd(32)} ${r.source.startsWith('/') ? shortPath(r.source, cwd) : r.source}`;

function permissionsText(ctrl: Controller): string {
  const r = ctrl.session.gate.rules;
  const { cwd } = ctrl.setup;
  const lines = [`Mode: ${ctrl.session.gate.mode} (${MODE_LABELS[ctrl.session.gate.mode].text})`, ''];
  for (const kind of ['deny', 'ask', 'allow'] as const) {
    lines.push(`${kind[0].toUpperCase()}${kind.slice(1)} rules:`);
    lines.push(...(r[kind].length ? r[kind].map((x) => ruleLine(x, cwd)) : ['  (none)']));
  }
  lines.push(
    '',
    'Order: deny rules → Plan Mode → ask rules → allow rules → the mode. "Always" answers are saved in .assistant/settings.local.json.',
  );
  return lines.join('\n');
}

const hookLine = (h: HookSpec, cwd: string) =>
  `  ${h.event.padEnd(16)} ${(h.matcher ?? '*').padEnd(12)} ${oneLine(h.command, 60)}  (${shortPath(h.source, cwd)}${h.failClosed ? ', failClosed' : ''})`;

/** `/hooks`: the hooks in force; when a settings file changed, the difference and the choice to accept it (SPEC §4). */
async function hooks(ctrl: Controller): Promise<void> {
  const { cwd } = ctrl.setup;
  const current = ctrl.session.hooks.hooks;
  out(
    ctrl,
    ['Hooks in force (read when the session started):', ...(current.length ? current.map((h) => hookLine(h, cwd)) : ['  (none)'])].join(
      '\n',
    ),
  );
  const p = proposeReload(ctrl.setup, { hooks: current, rules: ctrl.session.gate.rules });
  if ('error' in p) {
    ctrl.notice('error', `The settings files changed and cannot be read: ${p.error}`);
    return;
  }
  const changes = [
    ...p.addedHooks.map((h) => `+ hook ${hookLine(h, cwd).trim()}`),
    ...p.removedHooks.map((h) => `- hook ${hookLine(h, cwd).trim()}`),
    ...p.addedRules.map((r) => `+ ${r.kind} ${ruleLine(r, cwd).trim()}`),
    ...p.removedRules.map((r) => `- ${r.kind} ${ruleLine(r, cwd).trim()}`),
  ];
  if (changes.length === 0) {
    ctrl.session.settingsReviewed();
    ctrl.notice('info', 'The settings files match what this session uses.');
    return;
  }
  const v = await ctrl.choose(
    'The settings files changed during this session. Use the new hooks and rules from now on?',
    [
      { label: 'Yes, accept these changes for this session', value: 'accept' },
      { label: 'No, keep what the session started with', value: 'keep' },
    ],
    changes.join('\n'),
  );
  if (v !== 'accept') {
    ctrl.session.settingsReviewed();
    ctrl.notice('info', 'Kept the hooks and rules the session started with.');
    return;
  }
  ctrl.session.applySettings(p.hooks, p.rules);
  for (const w of p.warnings) ctrl.notice('warning', w);
  ctrl.notice(
    'success',
    `Accepted: ${p.hooks.length} hooks and ${p.rules.allow.length + p.rules.ask.length + p.rules.deny.length} rules are now in force.`,
  );
}

function costText(ctrl: Controller): string {
  const s = ctrl.session;
  const u = ctrl.meter.totalUsage(s);
  return [
    `Total cost:  ${formatCost(ctrl.totalCostUsd)}`,
    `Tokens:      ${formatTokens(u.inputTokens)} in (${formatTokens(u.cacheReadTokens)} cached), ${formatTokens(u.outputTokens)} out`,
    `Model:       ${s.model.label}`,
  ].join('\n');
}

export function statusText(ctrl: Controller): string {
  const s = ctrl.session;
  const { setup } = ctrl;
  return [
    ...modelStatusRows(s.model).map(([k, v]) => `${`${k}:`.padEnd(13)}${v}`),
    `Mode:        ${s.gate.mode}`,
    `Directory:   ${setup.cwd}`,
    `Session:     ${s.id}`,
    `Transcript:  ${s.conversation.transcript.path.startsWith(`${setup.home}/`) ? `~${s.conversation.transcript.path.slice(setup.home.length)}` : s.conversation.transcript.path}`,
    `Settings:    ${setup.settings.sources.map((x) => shortPath(x.file, setup.cwd)).join(', ') || 'none'}`,
    `Memory:      ${setup.memory.files.map((f) => shortPath(f.path, setup.cwd)).join(', ') || 'none (run /init)'}`,
    `Hooks:       ${s.hooks.hooks.length}    Rules: ${s.gate.rules.allow.length} allow, ${s.gate.rules.ask.length} ask, ${s.gate.rules.deny.length} deny`,
  ].join('\n');
}

/** `/memory`: lists the convention files and opens one in $VISUAL / $EDITOR. */
async function memory(ctrl: Controller): Promise<void> {
  const { cwd, home } = ctrl.setup;
  const files = ctrl.setup.memory.files;
  out(
    ctrl,
    files.length
      ? `Instructions in use:\n${files.map((f) => `  ${shortPath(f.path, cwd)} (${f.scope})`).join('\n')}`
      : 'No ASSISTANT.md yet: /init writes one.',
  );
  const editor = process.env.VISUAL || process.env.EDITOR;
  if (!editor || !ctrl.suspend) {
    ctrl.notice('info', 'Set $EDITOR to open these files from here.');
    return;
  }
  const v = await ctrl.choose(
    'Open which file?',
    memoryFileChoices({ cwd, home }).map((c) => ({ label: c.label, value: c.path })),
  );
  if (!v) return;
  ensureMemoryFile(v);
  await ctrl.suspend(() => openInEditor(editor, v));
  ctrl.reloadMemory();
  ctrl.notice('info', `Saved ${shortPath(v, cwd)}. The model sees it from the next prompt on.`);
}

/** `/resume [id]`: another session of this project (a picker when no id is given). */
async function resume(ctrl: Controller, args: string): Promise<void> {
  const sessions = otherSessions(ctrl.setup, ctrl.session.id);
  let id: string | undefined = args || undefined;
  if (!id) {
    if (sessions.length === 0) {
      ctrl.notice('info', 'No other session of this project to resume.');
      return;
    }
    id = await ctrl.choose(
      'Resume which session?',
      sessions.slice(0, 20).map((s) => ({
        label: `${new Date(s.mtimeMs).toLocaleString()}  ${oneLine(s.firstPrompt || '(no prompt)', 60)}`,
        value: s.sessionId,
      })),
    );
    if (!id) return;
  }
  const found = sessions.find((s) => s.sessionId === id || s.sessionId.startsWith(id!));
  if (!found) {
    ctrl.notice('error', `No session "${id}" in this project.`);
    return;
  }
  await ctrl.resume(found);
}
