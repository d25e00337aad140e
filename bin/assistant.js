#!/usr/bin/env node
// Runs the bundled CLI (built by `npm ci` through the prepare script, or `npm run build`).
// V8's compile cache makes every start after the first skip parsing the bundle again.
import module from 'node:module';
try {
  module.enableCompileCache?.();
} catch {
  /* older Node or read-only cache dir: start without it */
}
await import('../dist/assistant.js');
