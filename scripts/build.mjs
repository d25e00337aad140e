// Bundles the CLI: dist/assistant.js is a small entry (argv, --version, --help); everything else is
// in chunks beside it, loaded only when a mode needs it, so start-up reads kilobytes, not megabytes.
import { copyFileSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import { build } from 'esbuild';


rmSync('dist', { recursive: true, force: true });
await build({
  entryPoints: { assistant: 'src/cli/main.ts' },
  outdir: 'dist',
  chunkNames: 'chunk-[hash]',
  splitting: true,
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node22',
  minify: true,
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
