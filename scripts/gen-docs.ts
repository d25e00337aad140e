// Writes the generated documentation (npm run docs): docs/recipes.md from the recipe data and
// schema/settings.schema.json from the settings schema, schema/stream-json.schema.json from the
// stream-json lines' (headless/stream-schema.ts). test/recipes/doc.test.ts and
// test/config/json-schema.test.ts fail when either is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { recipesMarkdown } from '../src/recipes/doc.ts';
import { settingsJsonSchema } from '../src/config/json-schema.ts';
import { streamJsonSchema } from '../src/headless/stream-schema.ts';

writeFileSync(new URL('../docs/recipes.md', import.meta.url), recipesMarkdown());
console.log('wrote docs/recipes.md');
mkdirSync(new URL('../schema/', import.meta.url), { recursive: true });
writeFileSync(new URL('../schema/settings.schema.json', import.meta.url), settingsJsonSchema());
console.log('wrote schema/settings.schema.json');
writeFileSync(new URL('../schema/stream-json.schema.json', import.meta.url), streamJsonSchema());
console.log('wrote schema/stream-json.schema.json');
