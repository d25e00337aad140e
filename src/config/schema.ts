import { z } from 'zod';
import { HooksSchema } from '../hooks/schema.ts';
import { McpSettingsShape } from '../mcp/schema.ts';
import { SandboxSettingsSchema } from '../sandbox/settings.ts';
import { SETTINGS_MODE_NAMES } from '../permissions/mode-names.ts';

/** Permission keys; rule syntax is checked by permissions/rules.ts (docs/permissions.md). */
const PermissionsSchema = z.object({
  allow: z.array(z.string()).optional().describe('Rules for calls that run without asking, e.g. "Bash(npm test)", "Edit(src/**)"'),
  deny: z
    .array(z.string())
    .optional()
    .describe('Rules for calls that are always refused; a deny from any file beats an allow from any other'),
  ask: z.array(z.string()).optional().describe('Rules for calls that always ask (refused in headless runs)'),
  defaultMode: z
    .enum(SETTINGS_MODE_NAMES)
    .optional()
    .describe("The mode a session starts in (default normal); Claude Code's names are accepted"),
  additionalDirectories: z.array(z.string()).optional().describe('More directories the tools may use, as --add-dir'),
});

/** One settings file. Each feature owns its part; this composes them. */
export const SettingsSchema = z.object({
  $schema: z.string().optional().describe('The JSON Schema of this file, for editors (schema/settings.schema.json)'),
  model: z.string().optional().describe('PROVIDER:MODEL, e.g. anthropic:claude-sonnet-4-5'),
  env: z.record(z.string(), z.string()).optional().describe('Variables given to tools and hooks'),
  permissions: PermissionsSchema.optional().describe('Permission rules and the starting mode (docs/permissions.md)'),
  hooks: HooksSchema.optional().describe('Lifecycle hooks by event (docs/hooks.md)'),
  verify: z
    .union([z.string(), z.object({ command: z.string().describe('The command') }).loose()])
    .optional()
    .describe('Command that checks the project after the model changed files, e.g. "npm test" (docs/verification.md)'),
  ...McpSettingsShape,
  compaction: z
    .object({
      auto: z.boolean().optional().describe('Compact automatically when the context is nearly full (default true)'),
      threshold: z.number().gt(0).lt(1).optional().describe('Share of the context window that triggers it (default 0.8)'),
    })
    .optional()
    .describe('Automatic compaction of long conversations'),
  modelContextWindow: z
    .number()
    .int()
    .positive()
    .optional()
    .describe('Context window in tokens of a model that neither the catalogue nor its server knows (default 200000)'),
  thinking: z
    .enum(['off', 'low', 'medium', 'high'])
    .optional()
    .describe(
      "How much the model reasons before answering: Anthropic thinking budget, OpenAI reasoning effort, Gemini thinking (docs/models.md); unset: the provider's default",
    ),
  ollamaMaxContext: z
    .number()
    .int()
    .positive()
    .optional()
    .describe("The most context (num_ctx) asked of Ollama for a model that takes more (default 32768); a Modelfile's own num_ctx is kept"),
  sandbox: SandboxSettingsSchema.optional().describe('The OS sandbox for Bash commands (docs/sandbox.md)'),
  ui: z
    .object({
      promptHints: z.boolean().optional().describe('Prompt-lint hints under the input once typing pauses (default true)'),
      bell: z.boolean().optional().describe('Ring the terminal bell when a question waits for your answer (default false)'),
      terminalTitle: z
        .boolean()
        .optional()
        .describe("Show the project and the session's first prompt in the terminal title, marked while working or waiting (default true)"),
    })
    .optional()
    .describe('The terminal session (docs/ui.md)'),
});
export type Settings = z.infer<typeof SettingsSchema>;
