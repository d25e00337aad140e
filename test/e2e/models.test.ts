/**
 * Every provider used the way its own users expect (docs/models.md), through the built CLI against
 * the fake model server: a screenshot Read reaches each wire as an image (scaled down), the
 * thinking setting is in each request, and reasoning goes back where the provider needs it.
 */
import { test, before, after } from 'node:test';
import assert from 'node:assert/strict';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import sharp from 'sharp';
import { receivedImages, reply, startFakeModel, type FakeModel, type RecordedRequest } from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
let big: Buffer;
before(async () => {
  model = await startFakeModel();
  big = await sharp({ create: { width: 3000, height: 2000, channels: 3, background: '#c00' } })
    .png()
    .toBuffer();
});
after(async () => {
  await model.close();
});

type Body = Record<string, any>;
interface Case {
  model: string;
  env: () => Record<string, string>;
  /** Where the wire carries a tool's image: inside the result, or in a user message after it (chat wires). */
  imageIn: 'tool-result' | 'user';
  thinking: (first: Body) => void;
  /** What the second request carries of the first answer's reasoning. */
  reasoningBack: (second: Body) => void;
  /** OpenAI's Chat Completions never return reasoning (the Responses API does). */
  noReasoningOut?: true;
}

const CASES: Case[] = [
  {
    model: 'anthropic:claude-sonnet-4-5',
    env: () => model.env('anthropic'),
    imageIn: 'tool-result',
    thinking: (b) => assert.deepEqual(b.thinking, { type: 'enabled', budget_tokens: 31_999 }),
    reasoningBack: (b) => assert.deepEqual(b.messages[1].content[0], { type: 'thinking', thinking: 'Let me look.', signature: 'SIG-1' }),
  },
  {
    model: 'openai:gpt-5',
    env: () => model.env('openai'),
    imageIn: 'tool-result',
    thinking: (b) => assert.deepEqual(b.reasoning, { effort: 'high', summary: 'auto' }),
    reasoningBack: (b) =>
      assert.ok(
        b.input.some((i: Body) => (i.type === 'item_reference' || i.type === 'reasoning') && /^rs_/.test(i.id)),
        JSON.stringify(b.input),
      ),
  },
  {
    model: 'openai-chat:gpt-5',
    env: () => model.env('openai-chat'),
    imageIn: 'user',
    noReasoningOut: true,
    thinking: (b) => assert.ok('reasoning_effort' in b, JSON.stringify(Object.keys(b))),
    reasoningBack: (b) =>
      assert.ok(
        b.messages.every((m: Body) => m.reasoning_content === undefined && m.reasoning === undefined),
        'Chat Completions takes no reasoning back',
      ),
  },
  {
    model: 'google:gemini-2.5-pro',
    env: () => model.env('google'),
    imageIn: 'tool-result',
    thinking: (b) => {
      assert.equal(b.generationConfig.thinkingConfig.includeThoughts, true);
      assert.ok(b.generationConfig.thinkingConfig.thinkingBudget > 0);
    },
    reasoningBack: (b) => {
      const parts = b.contents.find((c: Body) => c.role === 'model').parts;
      assert.ok(
        parts.some((p: Body) => p.thought === true && p.thoughtSignature === 'SIG-1'),
        JSON.stringify(parts),
      );
      assert.ok(
        parts.some((p: Body) => p.functionCall && p.thoughtSignature),
        'the call keeps its signature',
      );
    },
  },
  {
    model: 'ollama:qwen3-vl',
    env: () => model.env('ollama'),
    imageIn: 'user',
    thinking: (b) => assert.equal(b.think, true),
    reasoningBack: (b) => assert.equal(b.messages.find((m: Body) => m.role === 'assistant').thinking, 'Let me look.'),
  },
];

test('a screenshot Read reaches every wire as an image, scaled down; --thinking is in every request; reasoning goes back where it must', async () => {
  const { dir, home } = makeProject();
  writeFileSync(join(dir, 'shot.png'), big);
  model.models([{ id: 'qwen3-vl', contextLength: 65_536, capabilities: ['completion', 'tools', 'vision', 'thinking'] }]);
  try {
    for (const c of CASES) {
      model.reset();
      model.script(
        reply().thinking('Let me look.', { signature: 'SIG-1' }).tool('Read', { file_path: 'shot.png' }),
        reply('A red rectangle.'),
      );
      const r = await runCli(
        ['-p', 'what is in shot.png?', '--model', c.model, '--thinking', 'high', '--output-format', 'stream-json', '--verbose'],
        { cwd: dir, home, env: c.env() },
      );
      assert.equal(r.code, 0, `${c.model}: ${r.stderr}`);
      const events = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l));
      assert.equal(events.at(-1).result, 'A red rectangle.', c.model);
      const thinking = events
        .filter((e) => e.type === 'assistant')
        .flatMap((e) => e.message.content)
        .find((p: Body) => p.type === 'thinking');
      assert.equal(thinking?.thinking, c.noReasoningOut ? undefined : 'Let me look.', `${c.model}: stream-json shows the thinking`);
      const [first, second] = model.requests as RecordedRequest[];
      c.thinking(first.body);
      c.reasoningBack(second.body);
      const images = receivedImages(second);
      assert.equal(images.length, 1, `${c.model}: one image`);
      assert.equal(images[0].where, c.imageIn, c.model);
      const meta = await sharp(Buffer.from(images[0].data, 'base64')).metadata();
      assert.deepEqual([meta.width, meta.height], [1568, 1045], `${c.model}: scaled to a 1568-px long edge`);
    }
  } finally {
    model.models([]);
  }
});

test('@shot.png attaches the image; a model without image input is told, not sent an error', async () => {
  const { dir, home } = makeProject();
  writeFileSync(join(dir, 'shot.png'), big);
  model.reset();
  model.script(reply('Seen.'), reply().tool('Read', { file_path: 'shot.png' }), reply('Understood.'));
  const attached = await runCli(['-p', 'look at @shot.png', '--model', 'anthropic:claude-sonnet-4-5'], {
    cwd: dir,
    home,
    env: model.env('anthropic'),
  });
  assert.equal(attached.code, 0, attached.stderr);
  assert.deepEqual(
    receivedImages(model.requests[0]).map((i) => [i.where, i.mediaType]),
    [['user', 'image/png']],
  );

  // o3-mini takes no images (the catalogue says so): Read tells the model, nothing is sent that the server would refuse.
  const textOnly = await runCli(['-p', 'what is in shot.png?', '--model', 'openai:o3-mini'], { cwd: dir, home, env: model.env('openai') });
  assert.equal(textOnly.code, 0, textOnly.stderr);
  assert.equal(receivedImages(model.requests[2]).length, 0);
  assert.match(JSON.stringify(model.requests[2].body), /not shown: openai:o3-mini does not take images/);
  const refused = await runCli(['-p', 'look at @shot.png', '--model', 'openai:o3-mini'], { cwd: dir, home, env: model.env('openai') });
  assert.equal(refused.code, 2);
  assert.match(refused.stderr, /@shot\.png: shot\.png is an image, and the model openai:o3-mini does not take images/);
  assert.equal(model.requests.length, 3, 'nothing sent');
});

test('an Ollama model whose context cannot hold the system prompt and tools is warned about', async () => {
  const { dir, home } = makeProject();
  model.reset();
  model.models([{ id: 'tiny', contextLength: 2048 }]);
  model.script(reply('ok'));
  try {
    const r = await runCli(['-p', 'hi', '--model', 'ollama:tiny'], { cwd: dir, home, env: model.env('ollama') });
    assert.equal(r.code, 0, r.stderr);
    assert.match(
      r.stderr,
      /ollama:tiny has a 2048-token context window \(from Ollama's \/api\/show\), but the system prompt and tool definitions alone take about \d+ tokens.*ollamaMaxContext/,
    );
    assert.equal((model.requests[0].body as Body).options.num_ctx, 2048);
  } finally {
    model.models([]);
  }
});
