/**
 * Runs the fake model server as its own process, for shell-driven demos:
 *
 *   node --import tsx test/fakes/model-server-cli.ts script.json [--port 8123] [--quiet]
 *
 * script.json is an array of serialisable steps (see stepFromJson in model-server.ts):
 *   [
 *     {"text": "Looking.", "tools": [{"name": "Read", "input": {"file_path": "a.ts"}}]},
 *     {"fail": 429, "retryAfter": 0},
 *     {"cut": {"text": "partial answer that is cut"}},
 *     {"stall": "an answer that stops halfway and waits"},
 *     {"streamError": "an answer", "type": "overloaded_error"},
 *     {"endEarly": {"tools": [{"name": "Write", "input": {"file_path": "a.txt", "content": "…"}}]}},
 *     {"malformed": "never seen", "data": "<html>502 Bad Gateway</html>"},
 *     {"hang": true},
 *     "Done."
 *   ]
 *
 * Prints the base URL (http://127.0.0.1:PORT, no /v1) as the only line on stdout, then
 * serves until SIGINT/SIGTERM. One summary line per
 * request goes to stderr unless --quiet. Point the CLI at it with
 *   ANTHROPIC_BASE_URL=$URL ANTHROPIC_API_KEY=x      or   OPENAI_BASE_URL=$URL/v1 OPENAI_API_KEY=x
 */
import { readFileSync } from 'node:fs';
import { stepFromJson, startFakeModel, type JsonStep, type Step } from './model-server.ts';

function usage(message: string): never {
  process.stderr.write(`${message}\nusage: model-server-cli.ts SCRIPT.json [--port N] [--quiet]\n`);
  process.exit(2);
}

async function main(): Promise<void> {
  const args = process.argv.slice(2);
  let file: string | undefined;
  let port = 0;
  let quiet = false;
  for (let i = 0; i < args.length; i++) {
    const a = args[i];
    if (a === '--port') port = Number(args[++i]);
    else if (a.startsWith('--port=')) port = Number(a.slice('--port='.length));
    else if (a === '--quiet' || a === '-q') quiet = true;
    else if (a === '--help' || a === '-h')
      usage('A scripted fake model server (Anthropic Messages, OpenAI Chat Completions and Responses).');
    else if (!file) file = a;
    else usage(`unexpected argument: ${a}`);
  }
  if (!file) usage('missing the script file');
  if (!Number.isInteger(port) || port < 0 || port > 65535) usage('--port must be a port number');

  let steps: Step[];
  try {
    const json = JSON.parse(readFileSync(file, 'utf8')) as unknown;
    if (!Array.isArray(json)) throw new Error('the script must be a JSON array of steps');
    steps = (json as JsonStep[]).map((s, i) => {
      try {
        return stepFromJson(s);
      } catch (e) {
        throw new Error(`step ${i}: ${(e as Error).message}`);
      }
    });
  } catch (e) {
    usage(`${file}: ${(e as Error).message}`);
  }

  const model = await startFakeModel({
    port,
    steps,
    log: quiet ? undefined : (line) => process.stderr.write(`fake model: ${line}\n`),
  });
  process.stdout.write(`${model.url}\n`);

  let stopping = false;
  const stop = () => {
    if (stopping) return;
    stopping = true;
    void model.close().then(() => process.exit(0));
  };
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
}

main().catch((e) => {
  process.stderr.write(`fake model: ${(e as Error)?.stack ?? String(e)}\n`);
  process.exit(1);
});
