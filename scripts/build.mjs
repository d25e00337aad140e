// Bundles the CLI: dist/assistant.js is a small entry (argv, --version, --help); everything else is
// in chunks beside it, loaded only when a mode needs it, so start-up reads kilobytes, not megabytes.
import { copyFileSync, renameSync, rmSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { createRequire } from 'node:module';
import { build } from 'esbuild';


// `import … from 'node:http'` (or https) in an ES module makes Node build that module's namespace,
// which reads its lazy `WebSocket` export and so loads all of Node's bundled undici (+17 MiB, tens
// of ms) in every session; `process.getBuiltinModule` gives the same module without that.
// Rewritten in our code (src/), with the zod rewrite below.
const HTTP_IMPORT = /^import (?:(\w+)|\{([^}]*)\}) from ['"](node:https?)['"];?[ \t]*$/gm;
function builtinHttp(text) {
  return text.replace(HTTP_IMPORT, (_, def, names, mod) => {
    if (def) return `const ${def} = process.getBuiltinModule('${mod}');`;
    const values = names.split(',').map((n) => n.trim()).filter((n) => n && !n.startsWith('type '));
    return values.length ? `const { ${values.map((n) => n.replace(/\s+as\s+/, ': ')).join(', ')} } = process.getBuiltinModule('${mod}');` : '';
  });
}

// `import { z } from 'zod'` pulls zod's whole namespace, every locale included (~590 KB, ~10 ms at
// start); `import * as z` lets esbuild keep only what is used. Rewritten in our code, the AI SDK's and the Ollama provider's.
const zodNamespace = {
  name: 'zod-namespace',
  setup(b) {
    b.onLoad({ filter: /(\/src\/.*\.ts|@ai-sdk\/[^/]+\/dist\/index\.js|ollama-ai-provider-v2\/dist\/index\.mjs)$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const zod = /import \{ z(?: as \w+)? \} from ['"]zod/.test(text);
      const http = args.path.endsWith('.ts') && new RegExp(HTTP_IMPORT.source, 'm').test(text);
      if (!zod && !http) return undefined;
      const zodText = text.replace(/import \{ z(?: as (\w+))? \} from (['"])(zod(?:\/v4)?)\2/g, (_, as, q, mod) => `import * as ${as ?? 'z'} from ${q}${mod}${q}`);
      return {
        contents: http ? builtinHttp(zodText) : zodText,
        loader: args.path.endsWith('.ts') ? 'ts' : 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

// The model catalogue's figures are computed once here (src/providers/catalogue-compact.ts) and
// bundled as data: ~20 KB in a chunk loaded only when a model is resolved, not the source's 550 KB.
const catalogueData = {
  name: 'catalogue-data',
  setup(b) {
    b.onLoad({ filter: /\/src\/providers\/catalogue-data\.ts$/ }, async () => {
      const { MODELS } = await import('../node_modules/@mariozechner/pi-ai/dist/models.generated.js');
      const { compactCatalogue } = await import('../src/providers/catalogue-compact.ts');
      return { contents: `export const CATALOGUE = ${JSON.stringify(compactCatalogue(MODELS))};`, loader: 'js' };
    });
  },
};

// The AI SDK builds a `Headers` per request (its user-agent header); the global one loads Node's
// whole bundled undici (+17 MiB, tens of ms), which the model requests no longer use (they go out
// on node:http, src/providers/http-post.ts). Within @ai-sdk/provider-utils only, `Headers` is ours.
const liteHeaders = {
  name: 'lite-headers',
  setup(b) {
    b.onLoad({ filter: /@ai-sdk\/provider-utils\/dist\/index\.js$/ }, async (args) => {
      const text = await readFile(args.path, 'utf8');
      const lite = new URL('../src/providers/lite-web.ts', import.meta.url).pathname;
      return { contents: `import { LiteHeaders as Headers } from ${JSON.stringify(lite)};\n${text}`, loader: 'js', resolveDir: dirname(args.path) };
    });
  },
};

rmSync('dist', { recursive: true, force: true });
await build({
  // The CLI, and the SDK (`import { query } from 'assistant-code'`, docs/sdk.md): shared code lands in shared chunks.
  entryPoints: { assistant: 'src/cli/main.ts', sdk: 'src/sdk/index.ts' },
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
  jsx: 'automatic',
  // ink 8 looks for react-devtools-core only when DEV is set; the stub keeps it out of the bundle.
  // jsonc-parser's "main" is a UMD build whose require('./impl/…') esbuild cannot follow: use its ESM build.
  alias: { 'react-devtools-core': './scripts/devtools-stub.mjs', 'jsonc-parser': './node_modules/jsonc-parser/lib/esm/main.js' },
  define: { 'process.env.NODE_ENV': '"production"' },
  // @vscode/ripgrep finds its binary relative to its own module, and sharp loads its native
  // libvips binding the same way: both stay external (package.json dependencies).
  external: ['@vscode/ripgrep', 'sharp'],
  banner: {
    js: "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);",
  },
  plugins: [zodNamespace, catalogueData, liteHeaders],
  logLevel: 'warning',
});

// The shell parser's two .wasm files go beside the bundle, where src/permissions/shell/load.ts looks first.
const resolve = createRequire(import.meta.url).resolve;
for (const wasm of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  copyFileSync(resolve(wasm), `dist/${wasm.split('/')[1]}`);
}

// The SDK's types: src/sdk/public.ts imports nothing, so its declarations are one self-contained file.
execFileSync(resolve('typescript/package.json').replace(/package\.json$/, 'bin/tsc'), [
  'src/sdk/public.ts', '--ignoreConfig', '--declaration', '--emitDeclarationOnly', '--outDir', 'dist/types', '--target', 'ES2023',
  '--module', 'NodeNext', '--moduleResolution', 'NodeNext', '--types', 'node', '--skipLibCheck', '--strict',
], { stdio: 'inherit' });
renameSync('dist/types/public.d.ts', 'dist/sdk.d.ts');
rmSync('dist/types', { recursive: true, force: true });
