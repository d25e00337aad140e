// Bundles the CLI into dist/assistant.js (one file; providers load lazily inside it).
import { build } from 'esbuild';


await build({
  entryPoints: ['src/cli/main.ts'],
  outfile: 'dist/assistant.js',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: false,
  sourcemap: false,
  legalComments: 'none',
  loader: { '.md': 'text' },
  // @vscode/ripgrep finds its binary relative to its own module; keep it external.
  external: ['@vscode/ripgrep'],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  logLevel: 'warning',
});
