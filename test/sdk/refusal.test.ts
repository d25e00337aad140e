import { test } from 'node:test';
import assert from 'node:assert/strict';
import { sdkRefuseAsk, sdkRemedy } from '../../src/headless/run.ts';

test("query() without canUseTool words a refusal's remedy as its options, not the command line's flags", async () => {
  assert.equal(
    sdkRemedy('--allowed-tools "WebFetch(domain:example.com)"'),
    'add "WebFetch(domain:example.com)" to the allowedTools option',
  );
  assert.equal(sdkRemedy('--add-dir /tmp/other'), 'add "/tmp/other" to the addDirs option');
  assert.equal(
    sdkRemedy('leave Plan Mode (--permission-mode normal or auto-accept)'),
    "leave Plan Mode (permissionMode: 'normal' or 'auto-accept')",
  );
  const a = await sdkRefuseAsk(
    { tool: 'WebSearch', input: {}, reason: 'WebSearch needs approval', remedy: '--allowed-tools "WebSearch"' } as never,
    new AbortController().signal,
  );
  assert.deepEqual(a, {
    allow: false,
    message:
      'Permission to use WebSearch was not granted: WebSearch needs approval. No canUseTool callback was given, so nobody can approve it. To allow it, add "WebSearch" to the allowedTools option.',
  });
});
