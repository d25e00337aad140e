import assert from 'node:assert/strict';
import { reply, lastToolResults, type FakeModel } from '../fakes/model-server.ts';
import { runCli } from './cli.ts';

/**
 * Runs the built CLI headless (`-p go`) with a model that makes these tool calls in one turn and
 * then answers "Done."; returns each call's result as the model saw it, the JSON result and stderr.
 */
export async function toolCallsRun(
  model: FakeModel,
  dir: string,
  home: string,
  args: string[],
  tools: Array<[string, Record<string, unknown>]>,
) {
  model.reset();
  let r = reply();
  for (const [name, input] of tools) r = r.tool(name, input);
  model.script(r, reply().text('Done.'));
  const run = await runCli(['-p', 'go', ...args, '--model', 'anthropic:claude-sonnet-4-5', '--output-format', 'json'], {
    cwd: dir,
    home,
    env: { ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl },
  });
  assert.equal(run.code, 0, run.stderr);
  return { results: lastToolResults(model.requests[1]).map((x) => x.content), result: JSON.parse(run.stdout), stderr: run.stderr };
}
