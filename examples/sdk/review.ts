// A runnable example of the SDK (docs/sdk.md): asks the assistant to review the project's changes,
// lets it read and run `git diff`, refuses everything else, and prints the answer and its cost.
//
//   npm i assistant-code
//   ANTHROPIC_API_KEY=… node review.ts [project-dir]     (Node 24 runs TypeScript; or npx tsx review.ts)
import { query, type SDKMessage } from 'assistant-code';

const cwd = process.argv[2] ?? process.cwd();
const controller = new AbortController();
process.once('SIGINT', () => controller.abort());

const run = query({
  prompt: 'Review the uncommitted changes (git diff) and list real problems only, most important first.',
  options: {
    cwd,
    model: process.env.ASSISTANT_MODEL ?? 'anthropic:claude-sonnet-4-5',
    permissionMode: 'normal',
    allowedTools: ['Bash(git diff:*)', 'Bash(git status:*)'],
    maxTurns: 20,
    abortController: controller,
    // Called where a terminal would ask: this program says no, and the model is told why.
    canUseTool: async (tool) => ({ behavior: 'deny', message: `${tool} is not allowed in a review: read only.` }),
    hooks: {
      PreToolUse: [
        {
          matcher: 'Bash',
          hooks: [
            async (input) => {
              console.error(`$ ${input.tool_input.command}`);
            },
          ],
        },
      ],
    },
  },
});

for await (const message of run as AsyncIterable<SDKMessage>) {
  if (message.type === 'assistant') {
    for (const block of message.message.content) if (block.type === 'text') process.stdout.write(`${block.text}\n`);
  }
  if (message.type === 'warning') console.error(`warning: ${message.message}`);
  if (message.type === 'result') {
    console.error(`\n${message.subtype}: ${message.num_turns} turns, $${message.total_cost_usd.toFixed(4)}`);
    process.exitCode = message.is_error ? 1 : 0;
  }
}
