// Bundles the CLI: dist/assistant.js is a small entry (argv, --version, --help); everything else is
// in chunks beside it, loaded only when a mode needs it, so start-up reads kilobytes, not megabytes.
import { copyFileSync, readdirSync, readFileSync, renameSync, rmSync, writeFileSync } from 'node:fs';
import { execFileSync } from 'node:child_process';
import { readFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { builtinModules, createRequire } from 'node:module';
import { build } from 'esbuild';

// `import … from 'node:fs'` (any built-in) in an ES module makes Node build that module's whole
// namespace, which runs its lazy getters: `fs.promises`, `util.parseArgs`, `process.report`, and
// `http.WebSocket`, which loads all of Node's bundled undici (+17 MiB, tens of ms), in every
// session. `process.getBuiltinModule` gives the same module object without that. Rewritten in our
// code (src/) and in commander (on the start-up path): default, named and namespace imports.
const BUILTINS = new Set(builtinModules.filter((m) => !m.startsWith('_')));
const BUILTIN_IMPORT = /^import\s+(?:(\w+)\s*,\s*)?(?:(\w+)|\*\s+as\s+(\w+)|\{([^}]*)\})\s+from\s+(['"])((?:node:)?[a-z_/]+)\5;?[ \t]*$/gm;
function builtinImports(text) {
  return text.replace(BUILTIN_IMPORT, (all, def1, def2, ns, names, _q, mod) => {
    const name = mod.replace(/^node:/, '');
    if (!BUILTINS.has(name)) return all;
    const get = `globalThis.process.getBuiltinModule(${JSON.stringify(`node:${name}`)})`;
    const out = [];
    for (const d of [def1, def2, ns]) if (d) out.push(`const ${d} = ${get};`);
    if (names !== undefined) {
      const values = names
        .split(',')
        .map((n) => n.trim())
        .filter((n) => n && !n.startsWith('type '));
      if (values.length) out.push(`const { ${values.map((n) => n.replace(/\s+as\s+/, ': ')).join(', ')} } = ${get};`);
    }
    return out.join(' ');
  });
}
const BUILTIN_FILES = /(\/src\/.*\.ts|\/node_modules\/commander\/lib\/[^/]+\.js)$/;

// `import { z } from 'zod'` pulls zod's whole namespace, every locale included (~590 KB, ~10 ms at
// start); `import * as z` lets esbuild keep only what is used. Rewritten in our code, the AI SDK's and the Ollama provider's.
const zodNamespace = {
  name: 'zod-namespace', // and the built-in imports above
  setup(b) {
    b.onLoad(
      {
        filter:
          /(\/src\/.*\.ts|@ai-sdk\/[^/]+\/dist\/index\.js|ollama-ai-provider-v2\/dist\/index\.mjs|\/node_modules\/commander\/lib\/[^/]+\.js)$/,
      },
      async (args) => {
        const text = await readFile(args.path, 'utf8');
        const zod = /import \{ z(?: as \w+)? \} from ['"]zod/.test(text);
        const builtin = BUILTIN_FILES.test(args.path) && new RegExp(BUILTIN_IMPORT.source, 'm').test(text);
        if (!zod && !builtin) return undefined;
        const zodText = text.replace(
          /import \{ z(?: as (\w+))? \} from (['"])(zod(?:\/v4)?)\2/g,
          (_, as, q, mod) => `import * as ${as ?? 'z'} from ${q}${mod}${q}`,
        );
        return {
          contents: builtin ? builtinImports(zodText) : zodText,
          loader: args.path.endsWith('.ts') ? 'ts' : 'js',
          resolveDir: dirname(args.path),
        };
      },
    );
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
      return {
        contents: `import { LiteHeaders as Headers } from ${JSON.stringify(lite)};\n${text}`,
        loader: 'js',
        resolveDir: dirname(args.path),
      };
    });
  },
};

// Bundled CommonJS code calls `require`: each chunk gets one, made from its own URL. Making it costs
// path work (createRequire builds the module's lookup paths), ~0.5 ms a chunk, 10 chunks for
// `--version`; chunks that never call `require` lose the banner after the build.
const REQUIRE_BANNER = "import { createRequire as __cr } from 'node:module'; const require = __cr(import.meta.url);";

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
  banner: { js: REQUIRE_BANNER },
  plugins: [zodNamespace, catalogueData, liteHeaders],
  logLevel: 'warning',
});

for (const f of readdirSync('dist')) {
  if (!f.endsWith('.js')) continue;
  const text = readFileSync(`dist/${f}`, 'utf8');
  if (text.startsWith(REQUIRE_BANNER) && !/\brequire\b/.test(text.slice(REQUIRE_BANNER.length))) {
    writeFileSync(`dist/${f}`, text.slice(REQUIRE_BANNER.length).replace(/^\n/, ''));
  }
}

// The shell parser's two .wasm files go beside the bundle, where src/permissions/shell/load.ts looks first.
const resolve = createRequire(import.meta.url).resolve;
for (const wasm of ['web-tree-sitter/web-tree-sitter.wasm', 'tree-sitter-bash/tree-sitter-bash.wasm']) {
  copyFileSync(resolve(wasm), `dist/${wasm.split('/')[1]}`);
}

// The SDK's types: src/sdk/public.ts imports nothing, so its declarations are one self-contained file.
execFileSync(
  resolve('typescript/package.json').replace(/package\.json$/, 'bin/tsc'),
  [
    'src/sdk/public.ts',
    '--ignoreConfig',
    '--declaration',
    '--emitDeclarationOnly',
    '--outDir',
    'dist/types',
    '--target',
    'ES2023',
    '--module',
    'NodeNext',
    '--moduleResolution',
    'NodeNext',
    '--types',
    'node',
    '--skipLibCheck',
    '--strict',
  ],
  { stdio: 'inherit' },
);
renameSync('dist/types/public.d.ts', 'dist/sdk.d.ts');
rmSync('dist/types', { recursive: true, force: true });
