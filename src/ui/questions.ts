import type { PermissionAnswer, PermissionRequest } from '../agent/events.ts';
import type { Session } from '../agent/session.ts';
import { shortPath } from './format.ts';
import { permissionPreview } from './permission-preview.ts';
import type { Choice, PermissionChoice, Question } from './state.ts';

/** The questions waiting for the user; the oldest is on screen (`show`), the others wait their turn. */
export class Questions {
  private readonly list: Question[] = [];
  private ids = 0;
  /** `opened`: a question was added (the idle clock stops while one waits). */
  constructor(
    private readonly show: (q: Question | undefined) => void,
    private readonly opened: () => void,
  ) {}

  get waiting(): boolean {
    return this.list.length > 0;
  }
  get first(): Question | undefined {
    return this.list[0];
  }
  nextId(): number {
    return ++this.ids;
  }

  push(q: Question): void {
    this.opened();
    this.list.push(q);
    this.show(this.list[0]);
  }

  pop(q: Question): void {
    const i = this.list.indexOf(q);
    if (i >= 0) this.list.splice(i, 1);
    this.show(this.list[0]);
  }

  /** A list to pick from (↑/↓, Enter; Esc gives undefined). `initial`: the option the ❯ starts on; `markdown`: the body is. */
  choose(
    title: string,
    options: Array<Choice<string>>,
    body?: string,
    o: { initial?: number; markdown?: boolean } = {},
  ): Promise<string | undefined> {
    return new Promise((resolveChoice) => {
      const q: Question = {
        kind: 'select',
        id: this.nextId(),
        title,
        body,
        options,
        ...o,
        answer: (v) => {
          this.pop(q);
          resolveChoice(v);
        },
      };
      this.push(q);
    });
  }

  /** Answers every open question "no" / Esc (the session is ending). */
  cancelAll(): void {
    for (const q of [...this.list]) q.kind === 'permission' ? q.answer({ kind: 'interrupt' }) : q.answer(undefined);
  }
}

export interface AskDeps {
  session: Session;
  cwd: string;
  questions: Questions;
  notice(tone: 'error' | 'success', text: string): void;
  /** Esc at the question: the turn stops too. */
  interrupt(): void;
}

/**
 * The Session's AskFn for the terminal: shows the permission dialog and turns the choice into an
 * answer ("always" saves the suggested rules first). An abort while it waits answers "no".
 */
export async function askPermission(d: AskDeps, req: PermissionRequest, signal: AbortSignal): Promise<PermissionAnswer> {
  // The preview of an Edit or Write: the change as it will land, from the file as it is now.
  const [always, preview] = await Promise.all([d.session.gate.suggest(req).catch(() => [] as string[]), permissionPreview(req, d.cwd)]);
  return new Promise((resolveAnswer) => {
    let done = false;
    const finish = (a: PermissionAnswer) => {
      if (done) return;
      done = true;
      signal.removeEventListener('abort', onAbort);
      d.questions.pop(q);
      resolveAnswer(a);
    };
    const onAbort = () => finish({ allow: false, message: 'Interrupted by the user.' });
    const q: Question = {
      kind: 'permission',
      id: d.questions.nextId(),
      req,
      always,
      preview,
      answer: (c: PermissionChoice) => {
        if (c.kind === 'once') return finish({ allow: true });
        if (c.kind === 'always') {
          try {
            const file = d.session.gate.allowAlways(always);
            d.notice('success', `Added ${always.join(', ')} to ${shortPath(file, d.cwd)}`);
          } catch (e) {
            d.notice('error', `Could not save the rule: ${(e as Error).message}`);
          }
          return finish({ allow: true });
        }
        if (c.kind === 'deny') {
          const fb = c.feedback.trim();
          return finish({
            allow: false,
            message: fb ? `The user refused this tool call and said: ${fb}` : 'The user refused this tool call.',
          });
        }
        finish({ allow: false, message: 'The user refused this tool call and interrupted the turn.' });
        d.interrupt();
      },
    };
    signal.addEventListener('abort', onAbort, { once: true });
    if (signal.aborted) {
      onAbort();
      return;
    }
    d.questions.push(q);
  });
}
