import type { Prompt } from '@modelcontextprotocol/sdk/types.js';
import type { McpManager } from './manager.ts';

/**
 * `/mcp__SERVER__PROMPT args` (SPEC §12): runs a server's prompt (`prompts/get`) and sends what it
 * returns as the user's prompt. Arguments are words in the order the prompt declares them (the
 * last one takes the rest of the line), or `name=value`.
 */

export interface PromptCommand {
  server: string;
  prompt: string;
  args: string;
}

const COMMAND = /^\/mcp__([A-Za-z0-9_-]+?)__(\S+)(?:\s+([\s\S]*))?$/;

/** `/mcp__everything__args-prompt Paris` → server, prompt, argument text; undefined for anything else. */
export function parsePromptCommand(text: string): PromptCommand | undefined {
  const m = COMMAND.exec(text.trim());
  return m ? { server: m[1], prompt: m[2], args: (m[3] ?? '').trim() } : undefined;
}

/** Splits the argument text over the prompt's declared arguments. */
export function promptArguments(declared: Prompt['arguments'], text: string): { args: Record<string, string> } | { error: string } {
  const names = (declared ?? []).map((a) => a.name);
  const args: Record<string, string> = {};
  const words = text === '' ? [] : text.split(/\s+/);
  const positional: string[] = [];
  for (const w of words) {
    const eq = w.indexOf('=');
    if (eq > 0 && names.includes(w.slice(0, eq))) args[w.slice(0, eq)] = w.slice(eq + 1);
    else positional.push(w);
  }
  const free = names.filter((n) => !(n in args));
  positional.forEach((w, i) => {
    const name = free[Math.min(i, free.length - 1)];
    if (name === undefined) return;
    args[name] = args[name] === undefined ? w : `${args[name]} ${w}`;
  });
  if (positional.length > 0 && free.length === 0)
    return { error: `it takes ${names.length ? `only the arguments ${names.join(', ')}` : 'no arguments'}` };
  const missing = (declared ?? []).filter((a) => a.required && !(a.name in args)).map((a) => a.name);
  if (missing.length) return { error: `missing ${missing.join(', ')} (usage: ${usage(declared)})` };
  return { args };
}

const usage = (declared: Prompt['arguments']) =>
  (declared ?? []).map((a) => (a.required ? `<${a.name}>` : `[${a.name}]`)).join(' ') || '(no arguments)';

/**
 * Gets the prompt from its server and returns the text to send (its messages' text and text
 * resources, in order), or why it cannot.
 */
export async function runPromptCommand(
  cmd: PromptCommand,
  mcp: McpManager,
  signal?: AbortSignal,
): Promise<{ ok: true; prompt: string } | { ok: false; error: string }> {
  const name = `/mcp__${cmd.server}__${cmd.prompt}`;
  await mcp.whenSettled();
  const status = mcp.statuses().find((s) => s.name === cmd.server);
  if (!status)
    return {
      ok: false,
      error: `${name}: there is no MCP server named "${cmd.server}" (configured: ${
        mcp
          .statuses()
          .map((s) => s.name)
          .join(', ') || 'none'
      })`,
    };
  if (status.state !== 'connected')
    return {
      ok: false,
      error: `${name}: the MCP server "${cmd.server}" is not connected (${status.state}${status.error ? `: ${status.error}` : ''})`,
    };
  try {
    const prompts = await mcp.listPrompts(cmd.server);
    const p = prompts.find((x) => x.name === cmd.prompt);
    if (!p)
      return {
        ok: false,
        error: `${name}: the server "${cmd.server}" has no prompt "${cmd.prompt}"${prompts.length ? ` (it has: ${prompts.map((x) => x.name).join(', ')})` : ''}`,
      };
    const a = promptArguments(p.arguments, cmd.args);
    if ('error' in a) return { ok: false, error: `${name}: ${a.error}` };
    const result = await mcp.getPrompt(cmd.server, cmd.prompt, a.args, signal);
    const parts = result.messages.flatMap((m) => {
      const c = m.content as { type: string; text?: string; resource?: { uri: string; text?: string } };
      if (c.type === 'text' && c.text) return [c.text];
      if (c.type === 'resource' && c.resource?.text) return [`Resource ${c.resource.uri}:\n${c.resource.text}`];
      return [];
    });
    if (parts.length === 0) return { ok: false, error: `${name}: the prompt returned no text` };
    return { ok: true, prompt: parts.join('\n\n') };
  } catch (e) {
    return { ok: false, error: `${name}: ${(e as Error)?.message ?? String(e)}` };
  }
}
