// Runs the TypeScript sources and tests under plain Node, in place of tsx:
//   node --import ./test/loader.mjs --test "test/**/*.test.ts"
// - .ts/.tsx/.mts/.cts outside node_modules go through esbuild's transform (types removed, JSX as
//   tsconfig's react-jsx, imports used only as types dropped, as tsc's isolatedModules expects);
// - .md files import as their text (esbuild's text loader does the same in the bundle);
// - a relative `./x.js` that does not exist is looked up as ./x.ts or ./x.tsx (tsc allows both).
// The hooks are synchronous and run in the importing thread (module.registerHooks, Node ≥ 22.15):
// no hooks worker. Each transform is cached on disk, keyed by the file's content, in
// node_modules/.cache/test-loader, so esbuild only starts when a file has changed. It also turns on
// V8's compile cache for the processes the tests start (see the end).
import { createHash } from 'node:crypto';
import { mkdirSync, readFileSync, renameSync, writeFileSync } from 'node:fs';
import { createRequire, enableCompileCache, registerHooks } from 'node:module';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('..', import.meta.url));
const CACHE = join(ROOT, 'node_modules/.cache/test-loader');
const require = createRequire(import.meta.url);
const TS = /\.(?:[cm]?ts|tsx)$/;

let esbuild;
let salt;
/** The cache key's constant part: what changes every output when it changes. */
function cacheSalt() {
  salt ??= `v1|${require('esbuild/package.json').version}|${readFileSync(fileURLToPath(import.meta.url), 'utf8')}`;
  return salt;
}

function transform(path, source) {
  const key = createHash('sha1').update(cacheSalt()).update('\0').update(path).update('\0').update(source).digest('hex');
  const file = join(CACHE, key.slice(0, 2), `${key}.mjs`);
  try {
    return readFileSync(file, 'utf8');
  } catch {
    /* not cached yet */
  }
  esbuild ??= require('esbuild');
  const { code } = esbuild.transformSync(source, {
    loader: path.endsWith('x') ? 'tsx' : 'ts',
    format: 'esm',
    target: 'esnext',
    jsx: 'automatic',
    sourcefile: path,
    sourcemap: 'inline',
    tsconfigRaw: { compilerOptions: { useDefineForClassFields: true, verbatimModuleSyntax: false, jsx: 'react-jsx' } },
  });
  try {
    mkdirSync(dirname(file), { recursive: true });
    const tmp = `${file}.${process.pid}.${Math.random().toString(36).slice(2)}`;
    writeFileSync(tmp, code);
    renameSync(tmp, file);
  } catch {
    /* a read-only tree: no cache, still correct */
  }
  return code;
}

registerHooks({
  resolve(specifier, context, nextResolve) {
    try {
      return nextResolve(specifier, context);
    } catch (err) {
      if (!/^\.\.?\//.test(specifier) || !/\.[cm]?js$/.test(specifier) || !context.parentURL?.startsWith('file:')) throw err;
      for (const ext of ['.ts', '.tsx']) {
        try {
          return nextResolve(specifier.replace(/\.([cm]?)js$/, ext === '.ts' ? '.$1ts' : ext), context);
        } catch {
          /* next */
        }
      }
      throw err;
    }
  },
  load(url, context, nextLoad) {
    if (!url.startsWith('file:')) return nextLoad(url, context);
    const bare = url.replace(/[?#].*$/, '');
    if (bare.endsWith('.md')) {
      const text = readFileSync(fileURLToPath(url), 'utf8');
      return { format: 'module', source: `export default ${JSON.stringify(text)};`, shortCircuit: true };
    }
    if (TS.test(bare) && !bare.includes('/node_modules/')) {
      const path = fileURLToPath(url);
      return { format: 'module', source: transform(path, readFileSync(path, 'utf8')), shortCircuit: true };
    }
    return nextLoad(url, context);
  },
});

// V8's compile cache (as bin/assistant.js enables for users) for this process and, through the
// environment, for every process it starts: test files, and the CLIs the end-to-end tests run.
process.env.NODE_COMPILE_CACHE ??= join(ROOT, 'node_modules/.cache/node-compile-cache');
try {
  enableCompileCache(process.env.NODE_COMPILE_CACHE);
} catch {
  /* read-only: start without it */
}

// Stack traces point at the TypeScript lines (the transforms carry inline source maps), as under tsx.
process.setSourceMapsEnabled(true);
