// Bundles the CLI into dist/assistant.js (one file; providers load lazily inside it).
import { copyFileSync } from 'node:fs';
import { createRequire } from 'node:module';
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

// The shell parser's two .wasm files go beside the bundle, where src/permissions/shell/load.ts looks first.
const resolve = createRequire(import.meta.url).resolve;
for (const wasm of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  copyFileSync(resolve(wasm), `dist/${wasm.split('/')[1]}`);
}
