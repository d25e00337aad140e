import { test } from 'node:test';
import assert from 'node:assert/strict';
import pkg from '../../package.json' with { type: 'json' };
import { MIN_NODE, nodeWarning } from '../../src/cli/node-support.ts';

test('one Node story: the minimum comes from engines; older versions get a warning naming both', () => {
  assert.equal(`>=${MIN_NODE}`, pkg.engines.node);
  for (const v of ['22.12.0', '22.13.1', '23.0.0', '24.21.0']) assert.equal(nodeWarning(v), undefined, v);
  for (const v of ['20.20.2', '22.11.9', '18.0.0'])
    assert.match(
      nodeWarning(v)!,
      new RegExp(`Node ${v.replace(/\./g, '\\.')} is older than the Node ${MIN_NODE.replace(/\./g, '\\.')}`),
      v,
    );
});
