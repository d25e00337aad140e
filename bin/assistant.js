#!/usr/bin/env node
// Runs the bundled CLI (built by `npm ci` through the prepare script, or `npm run build`).
// V8's compile cache makes every start after the first skip parsing the bundle again.
import module from 'node:module';
import v8 from 'node:v8';
// Each turn builds its request anew (the whole conversation), which is garbage by the next turn;
// V8 would keep growing the young generation for it, and a long session's memory with it. Kept at
// its first size, a 300-turn session peaks at ~160 MiB instead of ~225, at the same speed
// (bench/long.ts, bench/README.md). The CLI's own process only: the SDK leaves its host's V8 alone.
try { v8.setFlagsFromString('--semi-space-growth-factor=1'); } catch { /* a Node without the flag */ }
try { module.enableCompileCache?.(); } catch { /* older Node or read-only cache dir: start without it */ }
await import('../dist/assistant.js');
