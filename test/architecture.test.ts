import { test } from 'node:test';
import assert from 'node:assert/strict';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, relative } from 'node:path';

/**
 * DESIGN.md's dependency rule, as a lint: `cli | sdk → ui | headless → agent → providers, tools,
 * permissions, hooks, context, session, commands, recipes, sandbox, mcp, config → process` (config composes the features' schemas). Nothing below agent/ imports
 * agent/, ui/, headless/ or cli/; agent/ imports neither ui/, headless/ nor cli/.
 */
const SRC = join(import.meta.dirname, '../src');
const LAYER: Record<string, number> = { process: 0, cli: 4, sdk: 4, ui: 3, headless: 3, agent: 2, providers: 1, tools: 1, permissions: 1, hooks: 1, context: 1, session: 1, commands: 1, recipes: 1, sandbox: 1, mcp: 1, config: 1 };

function files(dir: string): string[] {
  return readdirSync(dir).flatMap((f) => {
    const p = join(dir, f);
    return statSync(p).isDirectory() ? files(p) : /\.tsx?$/.test(f) ? [p] : [];
  });
}

test('imports point one way: nothing below agent/ imports agent/, ui/, headless/ or cli/', () => {
  const bad: string[] = [];
  for (const file of files(SRC)) {
    const from = relative(SRC, file).split('/')[0];
    if (!(from in LAYER)) continue;
    for (const m of readFileSync(file, 'utf8').matchAll(/^(?:import|export)[^'"]*from '(\.\.?\/[^']+)'/gm)) {
      const target = relative(SRC, join(file, '..', m[1])).split('/')[0];
      if (!(target in LAYER) || target === from) continue;
      const sameTier = LAYER[target] === LAYER[from] && LAYER[from] === 3; // ui and headless stay apart
      if (LAYER[target] > LAYER[from] || sameTier) bad.push(`${relative(SRC, file)} imports ${m[1]}`);
    }
  }
  assert.deepEqual(bad, []);
});
