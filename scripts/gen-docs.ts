// Writes docs/recipes.md from the recipe data (npm run docs). test/recipes/doc.test.ts checks it is current.
import { writeFileSync } from 'node:fs';
import { recipesMarkdown } from '../src/recipes/doc.ts';

writeFileSync(new URL('../docs/recipes.md', import.meta.url), recipesMarkdown());
console.log('wrote docs/recipes.md');
