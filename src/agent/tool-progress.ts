import type { EventSink } from './events.ts';

/** How often a running tool's output goes to the event stream at most (the screen needs no more). */
const EVERY_MS = 100;

/**
 * Passes a running tool's output on as `tool-progress` events, a batch at most every 100 ms (a
 * command that prints a million lines makes ten events a second, not a million). `stop` drops
 * what is still pending: the tool's result follows with all of it.
 */
export function progressSink(emit: EventSink, id: string, name: string): { push(chunk: string): void; stop(): void } {
  let pending = '';
  let timer: NodeJS.Timeout | undefined;
  let stopped = false;
  const flush = () => {
    timer = undefined;
    if (stopped || !pending) return;
    const output = pending;
    pending = '';
    emit({ type: 'tool-progress', id, name, output });
  };
  return {
    push(chunk) {
      if (stopped) return;
      pending += chunk;
      if (pending.length > 64_000) pending = pending.slice(-64_000);
      timer ??= setTimeout(flush, EVERY_MS);
    },
    stop() {
      stopped = true;
      if (timer) clearTimeout(timer);
    },
  };
}
