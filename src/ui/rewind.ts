import { filesToRestore, restoreFiles, sessionRewindPoints, type RewindPoint } from '../agent/transcripts.ts';
import type { Controller } from './controller.ts';
import { oneLine, shortPath } from './format.ts';
import type { Choice } from './state.ts';

type Action = 'both' | 'conversation' | 'code';

/** What can be done for a chosen prompt: the conversation only while it still holds the prompt, code only when files would change. */
function rewindActions(point: RewindPoint, files: number): Array<Choice<string>> {
  const out: Array<Choice<string>> = [];
  if (point.active && files > 0) out.push({ label: 'Restore code and conversation', value: 'both' });
  if (point.active) out.push({ label: 'Restore conversation', value: 'conversation' });
  if (files > 0) out.push({ label: 'Restore code', value: 'code' });
  if (out.length) out.push({ label: 'Never mind', value: 'cancel' });
  return out;
}

const plural = (n: number, word: string) => `${n} ${word}${n === 1 ? '' : 's'}`;

/**
 * `/rewind` (Esc Esc), as Claude Code: pick an earlier prompt, then restore the code, the
 * conversation, or both, to how they were just before it (SPEC §9). Restoring the conversation
 * puts that prompt's text back in the input. Prompts a conversation rewind left behind are still
 * listed (marked), for their files only.
 */
export async function rewind(ctrl: Controller): Promise<void> {
  const points = sessionRewindPoints(ctrl.session);
  if (points.length === 0) {
    ctrl.notice('info', 'Nothing to rewind yet.');
    return;
  }
  const v = await ctrl.choose(
    'Rewind to before which prompt?',
    points
      .map((p, n) => ({
        label: oneLine(p.shown ?? p.prompt, 60),
        value: String(n),
        hint: `prompt ${p.index + 1} · ${p.files.length ? `${plural(p.files.length, 'file')} changed` : 'no file changes'}${p.active ? '' : ' · not in the conversation'}`,
      }))
      .reverse(),
  );
  if (v === undefined) return;
  const point = points[Number(v)];
  const files = filesToRestore(ctrl.session, point.index);
  const actions = rewindActions(point, files.length);
  if (actions.length === 0) {
    ctrl.notice('info', 'No file was changed from that prompt on, and it is no longer in the conversation: nothing to restore.');
    return;
  }
  const cwd = ctrl.setup.cwd;
  const body = [
    `Before prompt ${point.index + 1}: ${oneLine(point.shown ?? point.prompt, 70)}`,
    files.length
      ? `Code: ${plural(files.length, 'file')} would go back (${files
          .slice(0, 4)
          .map((f) => shortPath(f, cwd))
          .join(', ')}${files.length > 4 ? ', …' : ''}).`
      : 'Code: no file was changed from this prompt on.',
    point.active
      ? 'Conversation: everything from this prompt on is forgotten; its text comes back in the input.'
      : 'Conversation: this prompt was already rewound.',
  ].join('\n');
  const action = (await ctrl.choose('Restore what?', actions, body)) as Action | 'cancel' | undefined;
  if (!action || action === 'cancel') return;
  const restored = action === 'conversation' ? [] : restoreFiles(ctrl.session, point.index);
  // The conversation first: it starts the screen again, and the notices below must follow it.
  if (action !== 'code') ctrl.rewindConversation(point.index, point.prompt);
  if (action !== 'conversation') {
    ctrl.notice(
      'success',
      `Restored ${plural(restored.length, 'file')} to before prompt ${point.index + 1}:\n${restored.map((f) => `  ${shortPath(f, cwd)}`).join('\n')}${action === 'code' ? '\nThe conversation is unchanged: tell the model if it should read them again.' : ''}`,
    );
  }
  if (action !== 'code')
    ctrl.notice('success', `Rewound the conversation to before prompt ${point.index + 1}; its text is back in the input.`);
}
