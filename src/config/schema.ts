import { z } from 'zod';
import { HooksSchema } from '../hooks/schema.ts';

/** Permission keys (the permissions issue refines rule syntax). */
export const PermissionsSchema = z.object({
  allow: z.array(z.string()).optional(),
  deny: z.array(z.string()).optional(),
  ask: z.array(z.string()).optional(),
  defaultMode: z.enum(['plan', 'normal', 'auto-accept', 'bypass', 'default', 'acceptEdits', 'bypassPermissions']).optional(),
  additionalDirectories: z.array(z.string()).optional(),
});

/** One settings file. Each feature owns its part; this composes them. */
export const SettingsSchema = z.object({
  $schema: z.string().optional(),
  model: z.string().optional().describe('PROVIDER:MODEL, e.g. anthropic:claude-sonnet-4-5'),
  env: z.record(z.string(), z.string()).optional().describe('Variables given to tools and hooks'),
  permissions: PermissionsSchema.optional(),
  hooks: HooksSchema.optional().describe('Lifecycle hooks by event (SPEC §4)'),
  verify: z.union([z.string(), z.object({ command: z.string() }).loose()]).optional(),
  mcpServers: z.record(z.string(), z.unknown()).optional(),
  compaction: z.object({
    auto: z.boolean().optional().describe('Compact automatically when the context is nearly full (default true)'),
    threshold: z.number().gt(0).lt(1).optional().describe('Share of the context window that triggers it (default 0.8)'),
  }).optional(),
});
export type Settings = z.infer<typeof SettingsSchema>;
export const KNOWN_KEYS = new Set(Object.keys(SettingsSchema.shape));
