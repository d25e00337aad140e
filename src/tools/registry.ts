import { z } from 'zod';
import { bashTool } from './bash.ts';
import { editTool } from './edit.ts';
import { globTool } from './glob.ts';
import { grepTool } from './grep.ts';
import { lsTool } from './ls.ts';
import { readTool } from './read.ts';
import type { ToolContext, ToolDef, ToolResult } from './types.ts';
import { writeTool } from './write.ts';

/** The tools the model gets, in the order it sees them. */
export const builtinTools: ToolDef[] = [readTool, writeTool, editTool, bashTool, grepTool, globTool, lsTool];

export function getTool(name: string, tools: ToolDef[] = builtinTools): ToolDef | undefined {
  return tools.find((t) => t.name === name);
}

interface ToolSchema {
  name: string;
  description: string;
  inputSchema: Record<string, unknown>;
}

/** JSON Schema for a tool's input, as the model is shown it (no `$schema`, no zod's integer bounds noise). */
/** A tool's JSON Schema, made once per definition (every request and the context check ask for it). */
const jsonSchemas = new WeakMap<ToolDef, Record<string, unknown>>();

export function inputJsonSchema(tool: ToolDef): Record<string, unknown> {
  if (tool.inputJsonSchema) return tool.inputJsonSchema;
  const known = jsonSchemas.get(tool);
  if (known) return known;
  const schema = z.toJSONSchema(tool.schema, { io: 'input' }) as Record<string, unknown>;
  delete schema.$schema;
  const props = (schema.properties ?? {}) as Record<string, Record<string, unknown>>;
  for (const p of Object.values(props)) {
    if (p.maximum === Number.MAX_SAFE_INTEGER) delete p.maximum;
    if (p.minimum === Number.MIN_SAFE_INTEGER) delete p.minimum;
  }
  jsonSchemas.set(tool, schema);
  return schema;
}

/** What providers send to the model: name, description and input JSON Schema per tool. */
export function toolSchemas(tools: ToolDef[] = builtinTools): ToolSchema[] {
  return tools.map((t) => ({ name: t.name, description: t.description, inputSchema: inputJsonSchema(t) }));
}

/** `file_path (string, required): The file to read…` lines, to remind the model what a tool takes. */
function describeParameters(tool: ToolDef): string {
  const schema = inputJsonSchema(tool);
  const required = new Set((schema.required as string[] | undefined) ?? []);
  const props = (schema.properties ?? {}) as Record<string, { type?: string; enum?: string[]; description?: string }>;
  return Object.entries(props)
    .map(([name, p]) => {
      const type = p.enum ? p.enum.map((v) => JSON.stringify(v)).join(' | ') : (p.type ?? 'any');
      return `- ${name} (${type}, ${required.has(name) ? 'required' : 'optional'})${p.description ? `: ${p.description}` : ''}`;
    })
    .join('\n');
}

/** One line per problem: which field, what was wrong. */
function formatInputError(error: z.ZodError): string {
  return error.issues
    .map((issue) => {
      const field = issue.path.length > 0 ? issue.path.join('.') : '(the input)';
      if (issue.code === 'invalid_type' && /received undefined$/.test(issue.message)) return `- ${field}: required, but missing`;
      return `- ${field}: ${issue.message.replace(/^Invalid input: /, '')}`;
    })
    .join('\n');
}

const err = (output: string): ToolResult => ({ output, isError: true });

/**
 * Parses and validates raw input (an object or its JSON text). The error result names each bad
 * field and lists what the tool takes, so the model can fix its call.
 */
export function validateInput(def: ToolDef, rawInput: unknown): { input: Record<string, unknown> } | { error: ToolResult } {
  let raw = rawInput;
  if (typeof raw === 'string') {
    try {
      raw = raw.trim() === '' ? {} : JSON.parse(raw);
    } catch {
      return {
        error: err(`The input for ${def.name} is not valid JSON. Send a JSON object with these parameters:\n${describeParameters(def)}`),
      };
    }
  }
  if (raw === undefined || raw === null) raw = {};
  const parsed = def.schema.safeParse(raw);
  if (!parsed.success) {
    return {
      error: err(`Invalid input for ${def.name}:\n${formatInputError(parsed.error)}\n\n${def.name} takes:\n${describeParameters(def)}`),
    };
  }
  return { input: parsed.data as Record<string, unknown> };
}

/** Runs validated input. Never throws: an abort before the start and exceptions become error results. */
export async function executeTool(def: ToolDef, input: Record<string, unknown>, ctx: ToolContext): Promise<ToolResult> {
  if (ctx.signal.aborted) return err(`${def.name} was interrupted before it started.`);
  try {
    return await def.execute(input as never, ctx);
  } catch (e) {
    if (ctx.signal.aborted) return err(`${def.name} was interrupted.`);
    return err(`Tool ${def.name} failed: ${(e as Error)?.message ?? String(e)}`);
  }
}
