// `npm pack` / `npm publish` ship dist/ already built (scripts/build.mjs runs in prepack), so the
// packed package.json must not carry the repository's `prepare` build: an installer would warn
// about (or try to run) a script whose sources are not in the tarball. `strip` (prepack) keeps the
// original beside it; `restore` (postpack) puts it back, byte for byte.
import { existsSync, readFileSync, renameSync, writeFileSync } from 'node:fs';

const [mode] = process.argv.slice(2);
const saved = 'package.json.pack-orig';
if (mode === 'strip') {
  const text = readFileSync('package.json', 'utf8');
  writeFileSync(saved, text);
  const pkg = JSON.parse(text);
  delete pkg.scripts.prepare;
  writeFileSync('package.json', `${JSON.stringify(pkg, null, 2)}\n`);
} else if (mode === 'restore') {
  if (existsSync(saved)) renameSync(saved, 'package.json');
} else {
  console.error('usage: pack-manifest.mjs strip|restore');
  process.exit(2);
}
