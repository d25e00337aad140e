import { readFileSync } from 'node:fs';
import { z } from 'zod';
import { lineColumn } from '../config/errors.ts';
import { pathKey, scanJson } from '../config/json-scan.ts';
import type { ModelHandle, StreamEvent } from './types.ts';

const TurnSchema = z.object({
  text: z.string().optional(),
  tool_calls: z.array(z.object({ name: z.string(), input: z.record(z.string(), z.unknown()).default({}) })).optional(),
});
const ReplaySchema = z.union([z.array(TurnSchema), z.object({ turns: z.array(TurnSchema) })]);
type ReplayTurn = z.infer<typeof TurnSchema>;

export class ReplayFileError extends Error {}

/** Reads and checks a replay file; throws ReplayFileError with a message naming the file. */
export function loadReplay(file: string): ReplayTurn[] {
  let raw: string;
  try {
    raw = readFileSync(file, 'utf8');
  } catch (e) {
    throw new ReplayFileError(`replay file ${file} cannot be read: ${(e as Error).message}`);
  }
  const at = (offset: number) => {
    const { line, column } = lineColumn(raw, offset);
    return `${file}:${line}:${column}`;
  };
  let json: unknown;
  try {
    json = JSON.parse(raw);
  } catch (e) {
    const bad = scanJson(raw).error;
    throw new ReplayFileError(
      bad
        ? `replay file ${at(bad.offset)}: not valid JSON: ${bad.problem}; fix: ${bad.fix}`
        : `replay file ${file} is not valid JSON: ${(e as Error).message}`,
    );
  }
  const parsed = ReplaySchema.safeParse(json);
  if (!parsed.success) {
    // The union's own message says little: check the branch of the value's shape for the bad field.
    const branch = (Array.isArray(json) ? z.array(TurnSchema) : z.object({ turns: z.array(TurnSchema) })).safeParse(json);
    const issue = (branch.success ? parsed.error : branch.error).issues[0];
    const offset = scanJson(raw).positions.get(pathKey(issue.path));
    const where = offset !== undefined ? at(offset) : file;
    const field = issue.path.length ? `"${issue.path.join('.')}": ` : '';
    throw new ReplayFileError(
      `replay file ${where}: ${field}${issue.message}\nExpected {"turns":[{"text":"…","tool_calls":[{"name":"Read","input":{…}}]}]}`,
    );
  }
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
    contextSource: 'a replay (fixed)',
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
      yield {
        type: 'finish',
        reason: turn.tool_calls?.length ? 'tool-calls' : 'stop',
        usage: { inputTokens: 0, outputTokens: out, cacheReadTokens: 0, cacheWriteTokens: 0 },
      };
    },
  };
}
