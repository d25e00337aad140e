import { test } from 'node:test';
import assert from 'node:assert/strict';
import { existsSync, readFileSync } from 'node:fs';
import { settingsJsonSchema } from '../../src/config/json-schema.ts';
import { parseSettings } from '../../src/config/load.ts';

const root = new URL('../../', import.meta.url);

test('schema/settings.schema.json is generated from the current SettingsSchema (run npm run docs)', () => {
  const file = readFileSync(new URL('schema/settings.schema.json', root), 'utf8');
  assert.ok(file === settingsJsonSchema(), 'schema/settings.schema.json is stale: run "npm run docs"');
  const schema = JSON.parse(file);
  assert.equal(schema.type, 'object');
  assert.equal(schema.additionalProperties, false, 'editors flag unknown keys, as assistant warns');
  assert.equal(schema.properties.permissions.additionalProperties, false);
  assert.deepEqual(schema.properties.permissions.properties.defaultMode.enum.slice(0, 4), ['plan', 'normal', 'auto-accept', 'bypass']);
  assert.ok(schema.properties.hooks.propertyNames.enum.includes('PreToolUse'));
});

/** Every key path the schema declares, as docs/configuration.md writes it (`hooks.EVENT[].matcher`). */
function keyPaths(node: Record<string, any>, prefix: string): string[] {
  const out: string[] = [];
  for (const [k, v] of Object.entries<Record<string, any>>(node.properties ?? {})) {
    const path = prefix ? `${prefix}.${k}` : k;
    out.push(path);
    for (const branch of [v, ...(v.anyOf ?? [])]) {
      if (branch.properties) out.push(...keyPaths(branch, path));
      if (branch.type === 'object' && branch.additionalProperties?.type === 'array')
        out.push(...keyPaths(branch.additionalProperties.items, `${path}.EVENT[]`));
      if (branch.type === 'array' && branch.items?.properties) out.push(...keyPaths(branch.items, `${path}[]`));
    }
  }
  return [...new Set(out)];
}

test('docs/configuration.md describes every settings key, and the fix text points to it', () => {
  const doc = readFileSync(new URL('docs/configuration.md', root), 'utf8');
  const paths = keyPaths(JSON.parse(settingsJsonSchema()), '');
  assert.ok(
    paths.includes('hooks.EVENT[].hooks[].failClosed') && paths.includes('compaction.threshold') && paths.includes('verify.command'),
    paths.join(' '),
  );
  const missing = paths.filter((p) => !doc.includes(`| \`${p}\` |`));
  assert.deepEqual(missing, [], 'add a table row to docs/configuration.md for each');
  try {
    parseSettings('s.json', '{"compaction":{"threshold":2}}', []);
    assert.fail('no error');
  } catch (e) {
    const doc = /see (docs\/[\w.-]+\.md)/.exec((e as Error).message)?.[1];
    assert.ok(doc && existsSync(new URL(doc, root)), `the fix names an existing doc: ${(e as Error).message}`);
  }
});
