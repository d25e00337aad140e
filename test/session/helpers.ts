import { Session } from '../../src/agent/session.ts';
import { resolveModel } from '../../src/providers/resolve.ts';
import type { FakeModel } from '../fakes/model-server.ts';

/** A Session on the fake model in bypass mode (no questions), optionally resuming a transcript. */
export async function openSession(
  model: FakeModel,
  dir: string,
  home: string,
  resume?: { sessionId: string; path: string },
): Promise<Session> {
  const handle = await resolveModel({
    spec: 'anthropic:claude-sonnet-4-5',
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
    cwd: dir,
  });
  return new Session({
    cwd: dir,
    home,
    model: handle,
    mode: 'bypass',
    additionalDirs: [],
    env: {},
    version: 'test',
    emit: () => {},
    ask: async () => ({ allow: true }),
    autoCompact: false,
    ...(resume ? { resume } : {}),
  });
}

export const signal = () => new AbortController().signal;
