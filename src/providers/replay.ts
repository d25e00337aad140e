import { readFileSync } from 'node:fs';
import { z } from 'zod';
import type { ModelHandle, StreamEvent } from './types.ts';

const TurnSchema = z.object({
  text: z.string().optional(),
  tool_calls: z.array(z.object({ name: z.string(), input: z.record(z.string(), z.unknown()).default({}) })).optional(),
});
const ReplaySchema = z.union([z.array(TurnSchema), z.object({ turns: z.array(TurnSchema) })]);
export type ReplayTurn = z.infer<typeof TurnSchema>;

export class ReplayFileError extends Error {}

/** Reads and checks a replay file; throws ReplayFileError with a message naming the file. */
export function loadReplay(file: string): ReplayTurn[] {
  let raw: string;
  try { raw = readFileSync(file, 'utf8'); } catch (e) {
    throw new ReplayFileError(`replay file ${file} cannot be read: ${(e as Error).message}`);
  }
  let json: unknown;
  try { json = JSON.parse(raw); } catch (e) {
    throw new ReplayFileError(`replay file ${file} is not valid JSON: ${(e as Error).message}`);
  }
  const parsed = ReplaySchema.safeParse(json);
  if (!parsed.success) throw new ReplayFileError(`replay file ${file} does not match the replay format:\n${z.prettifyError(parsed.error)}\nExpected {"turns":[{"text":"…","tool_calls":[{"name":"Read","input":{…}}]}]}`);
  return Array.isArray(parsed.data) ? parsed.data : parsed.data.turns;
}

/** `--model replay:FILE`: plays the model's turns in order, with no network. */
export function replayModel(file: string, turns: ReplayTurn[]): ModelHandle {
  let next = 0;
  return {
    id: `replay:${file}`,
    provider: 'replay',
    model: file,
    label: `replay:${file} (replay)`,
    contextWindow: 200_000,
    async *stream(): AsyncGenerator<StreamEvent> {
      const turn = turns[next++];
      if (!turn) {
        yield { type: 'error', error: { message: `replay ${file} has no more turns (${turns.length} played)`, retryable: false } };
        return;
      }
      if (turn.text) {
        for (const piece of turn.text.match(/[\s\S]{1,24}/g) ?? []) yield { type: 'text', delta: piece };
      }
      let i = 0;
      for (const c of turn.tool_calls ?? []) {
        yield { type: 'tool-call', id: `replay_${next}_${i++}`, name: c.name, input: JSON.stringify(c.input) };
      }
      const out = Math.ceil((turn.text?.length ?? 0) / 4);
      yield { type: 'finish', reason: turn.tool_calls?.length ? 'tool-calls' : 'stop', usage: { inputTokens: 0, outputTokens: out, cacheReadTokens: 0, cacheWriteTokens: 0 } };
    },
  };
}
