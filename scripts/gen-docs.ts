// Writes the generated documentation (npm run docs): docs/recipes.md from the recipe data and
// schema/settings.schema.json from the settings schema. test/recipes/doc.test.ts and
// test/config/json-schema.test.ts fail when either is stale.
import { mkdirSync, writeFileSync } from 'node:fs';
import { recipesMarkdown } from '../src/recipes/doc.ts';
import { settingsJsonSchema } from '../src/config/json-schema.ts';

writeFileSync(new URL('../docs/recipes.md', import.meta.url), recipesMarkdown());
console.log('wrote docs/recipes.md');
mkdirSync(new URL('../schema/', import.meta.url), { recursive: true });
writeFileSync(new URL('../schema/settings.schema.json', import.meta.url), settingsJsonSchema());
console.log('wrote schema/settings.schema.json');
