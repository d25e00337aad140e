#!/usr/bin/env node
// A small MCP server on the official SDK for the client's fault tests (plain JS: it starts in
// ~100 ms under node, no tsx). Modes, by argument:
//   (none)             a well-behaved stdio server
//   --banner           prints a line of non-JSON on stdout first (tolerated, as in Claude Code)
//   --crash-after N    exits with code 3 on the Nth tool call, after a line on stderr
//   --exit-at-start    writes "fatal: no token" on stderr and exits 3 before answering
//   --hang             never answers anything (reads stdin, says nothing)
//   --garbage          answers initialize with a line that is not JSON
//   --grandchild FILE  starts a long-lived child process and writes its pid to FILE
//   --http | --sse     serves Streamable HTTP (or the older SSE transport) on 127.0.0.1, random
//                      port; prints its URL on stdout, one line
// FAULT_LOG=FILE: lines "cancelled NAME" when a call is cancelled, "call NAME" for each call.
import { spawn } from 'node:child_process';
import { appendFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:http';
import * as z from 'zod';
import { McpServer } from '@modelcontextprotocol/sdk/server/mcp.js';
import { StdioServerTransport } from '@modelcontextprotocol/sdk/server/stdio.js';
import { StreamableHTTPServerTransport } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import { SSEServerTransport } from '@modelcontextprotocol/sdk/server/sse.js';

const args = process.argv.slice(2);
const flag = (name) => args.includes(name);
const value = (name) => {
  const i = args.indexOf(name);
  return i === -1 ? undefined : args[i + 1];
};
const log = (line) => {
  if (process.env.FAULT_LOG) appendFileSync(process.env.FAULT_LOG, `${line}\n`);
};

if (flag('--exit-at-start')) {
  process.stderr.write('starting…\nfatal: no token\n');
  process.exit(3);
}
if (flag('--hang')) {
  process.stdin.resume();
  setInterval(() => {}, 1 << 30);
} else if (flag('--garbage')) {
  process.stdin.on('data', () => {
    process.stdout.write('{"jsonrpc": "2.0", "id": 0, "result": oops}\n');
  });
} else {
  if (flag('--grandchild')) {
    const child = spawn(process.execPath, ['-e', 'setInterval(() => {}, 1 << 30)'], { stdio: 'ignore' });
    writeFileSync(value('--grandchild'), String(child.pid));
  }
  if (flag('--banner')) process.stdout.write('fault server 1.0 ready (a banner some servers print)\n');
  const crashAfter = Number(value('--crash-after') ?? 0);
  let calls = 0;

  const make = () => {
    const server = new McpServer(
      { name: 'fault', version: '1.0.0' },
      { capabilities: { tools: { listChanged: true }, resources: {}, prompts: {} } },
    );
    const counted = (name, fn) => async (input, extra) => {
      calls++;
      log(`call ${name}`);
      if (crashAfter && calls >= crashAfter) {
        process.stderr.write(`crashing on call ${calls} as asked\n`);
        process.exit(3);
      }
      return fn(input, extra);
    };
    server.registerTool(
      'echo',
      { description: 'Echoes the text.', inputSchema: { text: z.string().describe('what to echo') }, annotations: { readOnlyHint: true } },
      counted('echo', async ({ text }) => ({ content: [{ type: 'text', text }] })),
    );
    server.registerTool(
      'slow',
      { description: 'Waits, reporting progress; honours cancellation.', inputSchema: { ms: z.number() } },
      counted('slow', async ({ ms }, extra) => {
        const token = extra._meta?.progressToken;
        const steps = 4;
        if (token !== undefined)
          await extra.sendNotification({
            method: 'notifications/progress',
            params: { progressToken: token, progress: 0, total: steps, message: 'started' },
          });
        for (let i = 1; i <= steps; i++) {
          const aborted = await new Promise((resolve) => {
            const t = setTimeout(() => resolve(false), ms / steps);
            extra.signal.addEventListener(
              'abort',
              () => {
                clearTimeout(t);
                resolve(true);
              },
              { once: true },
            );
          });
          if (aborted) {
            log('cancelled slow');
            return { content: [{ type: 'text', text: 'cancelled' }] };
          }
          if (token !== undefined)
            await extra.sendNotification({
              method: 'notifications/progress',
              params: { progressToken: token, progress: i, total: steps, message: `step ${i}` },
            });
        }
        return { content: [{ type: 'text', text: `waited ${ms} ms` }] };
      }),
    );
    server.registerTool(
      'hang',
      { description: 'Never answers.' },
      counted('hang', () => new Promise(() => {})),
    );
    server.registerTool(
      'huge',
      { description: 'Returns a lot of text.', inputSchema: { chars: z.number() } },
      counted('huge', async ({ chars }) => ({ content: [{ type: 'text', text: 'x'.repeat(chars - 4) + 'END.' }] })),
    );
    server.registerTool(
      'fail',
      { description: 'Reports an error.' },
      counted('fail', async () => ({ isError: true, content: [{ type: 'text', text: 'the widget is jammed; try a smaller widget' }] })),
    );
    server.registerTool(
      'image',
      { description: 'Returns an image.' },
      counted('image', async () => ({
        content: [
          { type: 'text', text: 'a pixel:' },
          { type: 'image', mimeType: 'image/png', data: 'iVBORw0KGgo=' },
        ],
      })),
    );
    server.registerTool(
      'add_tool',
      { description: 'Adds a tool named "added".' },
      counted('add_tool', async () => {
        server.registerTool('added', { description: 'Added at run time.' }, async () => ({
          content: [{ type: 'text', text: 'I was added' }],
        }));
        return { content: [{ type: 'text', text: 'added' }] };
      }),
    );
    server.registerTool(
      'garbage_now',
      { description: 'Writes garbage on stdout.' },
      counted('garbage_now', async () => {
        process.stdout.write('{this is not json}\n');
        return new Promise(() => {});
      }),
    );
    server.registerTool(
      'pid',
      { description: 'Its process id.' },
      counted('pid', async () => ({ content: [{ type: 'text', text: String(process.pid) }] })),
    );
    server.registerTool(
      'env',
      { description: 'One environment variable.', inputSchema: { name: z.string() } },
      counted('env', async ({ name }) => ({ content: [{ type: 'text', text: process.env[name] ?? '(unset)' }] })),
    );
    server.registerTool('do.thing/with space', { description: 'A name no provider accepts.' }, async () => ({
      content: [{ type: 'text', text: 'done' }],
    }));
    server.registerResource('readme', 'fault://readme', { mimeType: 'text/plain' }, async (uri) => ({
      contents: [{ uri: uri.href, text: 'the fault server reads like this' }],
    }));
    server.registerPrompt('greet', { description: 'Says hello.', argsSchema: { who: z.string() } }, ({ who }) => ({
      messages: [{ role: 'user', content: { type: 'text', text: `Say hello to ${who}.` } }],
    }));
    return server;
  };

  if (flag('--http')) {
    const http = createServer(async (req, res) => {
      const server = make();
      const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined });
      res.on('close', () => {
        transport.close();
        server.close();
      });
      await server.connect(transport);
      let body = '';
      req.on('data', (d) => {
        body += d;
      });
      req.on('end', () => transport.handleRequest(req, res, body ? JSON.parse(body) : undefined));
    });
    http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/mcp\n`));
  } else if (flag('--sse')) {
    const sessions = new Map();
    const http = createServer(async (req, res) => {
      const auth = req.headers.authorization;
      if (process.env.FAULT_TOKEN && auth !== `Bearer ${process.env.FAULT_TOKEN}`) {
        res.writeHead(401).end('no');
        return;
      }
      if (req.method === 'GET' && req.url === '/sse') {
        const transport = new SSEServerTransport('/messages', res);
        sessions.set(transport.sessionId, transport);
        res.on('close', () => sessions.delete(transport.sessionId));
        await make().connect(transport);
      } else if (req.method === 'POST' && req.url?.startsWith('/messages')) {
        const id = new URL(req.url, 'http://x').searchParams.get('sessionId');
        await sessions.get(id)?.handlePostMessage(req, res);
      } else res.writeHead(404).end();
    });
    http.listen(0, '127.0.0.1', () => process.stdout.write(`http://127.0.0.1:${http.address().port}/sse\n`));
  } else {
    await make().connect(new StdioServerTransport());
  }
}
