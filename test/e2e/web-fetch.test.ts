/** WebFetch end to end (SPEC §14): a local HTTP server, the built CLI, the fake model answering the page request. */
import { test, after, before } from 'node:test';
import assert from 'node:assert/strict';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  startFakeModel,
  reply,
  lastToolResults,
  systemPrompt,
  userTexts,
  type FakeModel,
  type RecordedRequest,
} from '../fakes/model-server.ts';
import { makeProject } from '../fakes/project.ts';
import { runCli } from './cli.ts';

let model: FakeModel;
const hits: string[] = [];
const otherHits: string[] = [];
let site: http.Server;
let other: http.Server;
let base = '';
let otherBase = '';

const PAGE = `<!doctype html><html><head><title>Widget API</title><style>.x{color:red}</style></head><body>
<nav><a href="/">Home</a> | <a href="/about">About</a></nav>
<article><h1>Widget API</h1><p>The <strong>widget</strong> call takes a <code>size</code> option. It is documented here at length so that the reader finds it.</p>
<h2>Options</h2><ul><li>size: the widget's size in pixels</li><li>colour: its colour</li></ul>
<pre><code>widget({ size: 3 })</code></pre><p>See <a href="https://example.org/more">more</a>. This paragraph is long enough for the article to be recognised as the content of the page.</p></article>
<script>alert('no')</script><footer>© nobody</footer></body></html>`;

before(async () => {
  model = await startFakeModel();
  other = http.createServer((req, res) => {
    otherHits.push(req.url ?? '');
    res.end('other');
  });
  await new Promise<void>((r) => other.listen(0, '127.0.0.1', r));
  otherBase = `http://127.0.0.1:${(other.address() as AddressInfo).port}`;
  site = http.createServer((req, res) => {
    hits.push(req.url ?? '');
    if (req.url === '/docs') {
      res.writeHead(200, { 'content-type': 'text/html; charset=utf-8' });
      res.end(PAGE);
      return;
    }
    if (req.url === '/latin1') {
      res.writeHead(200, { 'content-type': 'text/plain; charset=iso-8859-1' });
      res.end(Buffer.from([0x63, 0x61, 0x66, 0xe9]));
      return;
    }
    if (req.url === '/image') {
      res.writeHead(200, { 'content-type': 'image/png' });
      res.end(Buffer.alloc(10));
      return;
    }
    if (req.url === '/moved') {
      res.writeHead(301, { location: '/docs' });
      res.end();
      return;
    }
    if (req.url === '/away') {
      res.writeHead(302, { location: `${otherBase}/elsewhere` });
      res.end();
      return;
    }
    res.writeHead(404);
    res.end('no');
  });
  await new Promise<void>((r) => site.listen(0, '127.0.0.1', r));
  base = `http://127.0.0.1:${(site.address() as AddressInfo).port}`;
});
after(async () => {
  await model.close();
  site.close();
  other.close();
});

const ENV = () => ({ ANTHROPIC_API_KEY: 'k', ANTHROPIC_BASE_URL: model.anthropicBaseUrl });
const ARGS = ['--model', 'anthropic:claude-sonnet-4-5'];
const isPage = (r: RecordedRequest) => /answer a question about a web page/.test(systemPrompt(r) ?? '');

function scriptFetch(...urls: string[]): void {
  model.reset();
  model.onRequest((req) => (isPage(req) ? reply('PAGE-ANSWER: size is in pixels') : undefined));
  model.script(...urls.map((url) => reply().tool('WebFetch', { url, prompt: 'What does size mean?' })), reply('done'));
}

test('an allowed page comes back as Markdown to the page request, and its answer to the model; cached the second time', async () => {
  const { dir, home } = makeProject();
  hits.length = 0;
  scriptFetch(`${base}/moved`, `${base}/moved`);
  const r = await runCli(['-p', 'read the docs', '--allowed-tools', 'WebFetch(domain:127.0.0.1)', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const pages = model.requests.filter(isPage);
  assert.equal(pages.length, 2);
  const sent = userTexts(pages[0]).join('\n');
  assert.match(sent, /# Widget API/);
  assert.match(sent, /\*\*widget\*\*/);
  assert.match(sent, /-\s+size: the widget's size in pixels/);
  assert.match(sent, /```\nwidget\(\{ size: 3 \}\)\n```/);
  assert.match(sent, /\[more\]\(https:\/\/example\.org\/more\)/);
  assert.doesNotMatch(sent, /<p>|alert\(|color:red/);
  assert.match(sent, /What does size mean\?/);
  const main = model.requests.filter((q) => !isPage(q));
  const res = lastToolResults(main[1])[0];
  assert.match(res.content, /PAGE-ANSWER/);
  assert.match(res.content, /Fetched from .*\/docs/, 'the final URL after a same-host redirect');
  assert.deepEqual(hits, ['/moved', '/docs'], 'the second fetch of the same URL comes from the cache');
});

test('a redirect to another host (another port) is reported, not followed', async () => {
  const { dir, home } = makeProject();
  otherHits.length = 0;
  scriptFetch(`${base}/away`);
  const r = await runCli(['-p', 'read', '--allowed-tools', 'WebFetch(domain:127.0.0.1)', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  const res = lastToolResults(model.requests.filter((q) => !isPage(q))[1])[0];
  assert.match(res.content, new RegExp(`REDIRECT DETECTED: .* to a different host: ${otherBase}/elsewhere`));
  assert.deepEqual(otherHits, []);
  assert.equal(model.requests.filter(isPage).length, 0);
});

test('a WebFetch(domain:…) deny rule refuses, over an allow', async () => {
  const { dir, home } = makeProject();
  hits.length = 0;
  scriptFetch(`${base}/docs`);
  const r = await runCli(
    ['-p', 'read', '--allowed-tools', 'WebFetch(domain:127.0.0.1)', '--disallowed-tools', 'WebFetch(domain:127.0.0.1)', ...ARGS],
    { cwd: dir, home, env: ENV() },
  );
  assert.equal(r.code, 0, r.stderr);
  const res = lastToolResults(model.requests[1])[0];
  assert.match(res.content, /denied by the rule "WebFetch\(domain:127\.0\.0\.1\)"/);
  assert.deepEqual(hits, []);
});

test('127.0.0.1 is refused without a rule naming it, even in bypass mode; other hosts ask (refused headless, naming the rule)', async () => {
  const { dir, home } = makeProject();
  hits.length = 0;
  scriptFetch(`${base}/docs`, 'https://docs.example.com/page');
  const r = await runCli(['-p', 'read', '--permission-mode', 'bypass', '--allowed-tools', 'WebFetch(domain:example.com)', ...ARGS], {
    cwd: dir,
    home,
    env: ENV(),
  });
  assert.equal(r.code, 0, r.stderr);
  assert.match(lastToolResults(model.requests[1])[0].content, /127\.0\.0\.1 is refused: it is on this machine or its private network/);
  assert.deepEqual(hits, []);
  scriptFetch('https://docs.example.com/page');
  const asked = await runCli(['-p', 'read', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(asked.code, 0, asked.stderr);
  assert.match(lastToolResults(model.requests[1])[0].content, /headless run.*--allowed-tools "WebFetch\(domain:docs\.example\.com\)"/s);
});

test("the page's charset is honoured; content that is not text is refused", async () => {
  const { dir, home } = makeProject();
  scriptFetch(`${base}/latin1`, `${base}/image`);
  const r = await runCli(['-p', 'read', '--allowed-tools', 'WebFetch(domain:127.0.0.1)', ...ARGS], { cwd: dir, home, env: ENV() });
  assert.equal(r.code, 0, r.stderr);
  assert.match(userTexts(model.requests.filter(isPage)[0]).join('\n'), /café/);
  const main = model.requests.filter((q) => !isPage(q));
  assert.match(lastToolResults(main[2])[0].content, /is image\/png, not a page WebFetch can read/);
});
