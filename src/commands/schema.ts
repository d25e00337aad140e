import { z } from 'zod';
import { parseRule } from '../permissions/rules.ts';
import type { FrontEntry, FrontProblem } from './front-matter.ts';
import { splitRuleList } from './words.ts';

/**
 * The front matter of a custom command file (SPEC §6): the one source of truth for its keys and
 * types. Values arrive as text or lists of text from front-matter.ts; the JSON Schema users see
 * can be generated from this with z.toJSONSchema.
 */
const CommandFrontMatterSchema = z.object({
  description: z
    .string({ error: 'must be text, not a list' })
    .optional()
    .describe('One line shown by /help; defaults to the first line of the body'),
  'argument-hint': z
    .string({ error: 'must be text, not a list' })
    .optional()
    .describe('What to type after the command, shown by /help, e.g. "[pr-number] [priority]"'),
  'allowed-tools': z
    .union([z.string(), z.array(z.string())], { error: 'must be rules: "Bash(git add:*), Read" or a YAML list' })
    .optional()
    .describe('Permission rules granted for the turn the command starts; Bash rules also gate !`cmd` in the body'),
  model: z.string({ error: 'must be text, not a list' }).optional().describe('The model for this command, as PROVIDER:MODEL'),
});
type CommandFrontMatter = z.infer<typeof CommandFrontMatterSchema>;

const FRONT_MATTER_KEYS = Object.keys(CommandFrontMatterSchema.shape) as Array<keyof CommandFrontMatter>;

interface CommandMeta {
  description?: string;
  argumentHint?: string;
  allowedTools: string[];
  model?: string;
}

/** `Bash(a:*), Read`, `[Bash(a:*), Read]` or a list of either → one rule per entry. */
function ruleList(value: string | string[]): string[] {
  const items = Array.isArray(value) ? value : [value.trim().replace(/^\[([\s\S]*)\]$/, '$1')];
  return items.flatMap(splitRuleList).map((r) => r.replace(/^(["'])(.*)\1$/, '$2'));
}

/**
 * Checks each entry against the schema on its own, so one bad key costs only itself: it is
 * reported with its line and its default is used. Unknown keys are reported and ignored; a
 * malformed rule in allowed-tools is reported and left out.
 */
export function readCommandMeta(entries: FrontEntry[]): { meta: CommandMeta; problems: FrontProblem[] } {
  const problems: FrontProblem[] = [];
  const meta: CommandMeta = { allowedTools: [] };
  const shape = CommandFrontMatterSchema.shape as Record<string, z.ZodType>;
  for (const { key, value, line } of entries) {
    const field = shape[key];
    if (!field) {
      problems.push({ line, message: `unknown key "${key}" is ignored (known: ${FRONT_MATTER_KEYS.join(', ')})` });
      continue;
    }
    const r = field.safeParse(value);
    if (!r.success) {
      problems.push({ line, message: `${key} ${r.error.issues[0]?.message ?? 'is not valid'}` });
      continue;
    }
    const v = r.data as string | string[];
    if (key === 'description') meta.description = (v as string).trim();
    else if (key === 'argument-hint') meta.argumentHint = (v as string).trim();
    else if (key === 'model') meta.model = (v as string).trim();
    else if (key === 'allowed-tools') {
      for (const text of ruleList(v)) {
        const rule = parseRule(text, 'allow', 'command front matter');
        if (typeof rule === 'string') problems.push({ line, message: `allowed-tools: ${rule}; this rule is left out` });
        else meta.allowedTools.push(text);
      }
    }
  }
  return { meta, problems };
}
