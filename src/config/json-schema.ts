import { z } from 'zod';
import { HOOK_EVENTS } from '../hooks/schema.ts';
import { SettingsSchema } from './schema.ts';

type Node = Record<string, unknown>;

/** Editors flag keys the schema does not list, as `assistant` warns about them (SPEC §2). */
function closeObjects(node: unknown): void {
  if (Array.isArray(node)) {
    node.forEach(closeObjects);
    return;
  }
  if (node === null || typeof node !== 'object') return;
  const n = node as Node;
  if (n.type === 'object' && n.properties) n.additionalProperties = false;
  for (const v of Object.values(n)) closeObjects(v);
}

/**
 * The JSON Schema of a settings file, generated from SettingsSchema (`npm run docs` writes it to
 * schema/settings.schema.json; a test fails when the file is stale). Reference it with `"$schema"`.
 */
export function settingsJsonSchema(): string {
  const schema = z.toJSONSchema(SettingsSchema, { io: 'input' }) as Node;
  closeObjects(schema);
  const props = schema.properties as Record<string, Node>;
  props.hooks.propertyNames = { enum: [...HOOK_EVENTS] };
  const out = {
    $schema: schema.$schema,
    title: 'assistant settings',
    description:
      'One settings file of assistant: ~/.assistant/settings.json, .assistant/settings.json, .assistant/settings.local.json or --settings FILE (docs/configuration.md).',
    ...schema,
  };
  return `${JSON.stringify(out, null, 2)}\n`;
}
