// A node:test reporter that prints, per test file, the summed duration of its top-level tests,
// slowest first (used to make test/README.md's table: `--test-reporter=./test/durations-reporter.mjs`).
export default async function* durations(source) {
  const perFile = new Map();
  let fail = 0;
  let pass = 0;
  for await (const { type, data } of source) {
    if (type === 'test:fail' && data.details?.type !== 'suite') {
      fail++;
      yield `FAIL ${data.file}: ${data.name}\n${data.details?.error?.stack ?? data.details?.error ?? ''}\n`;
    }
    if (type === 'test:pass' && data.details?.type !== 'suite') pass++;
    if ((type === 'test:pass' || type === 'test:fail') && data.nesting === 0 && data.file) {
      perFile.set(data.file, (perFile.get(data.file) ?? 0) + (data.details?.duration_ms ?? 0));
    }
  }
  const rows = [...perFile].sort((a, b) => b[1] - a[1]);
  for (const [file, ms] of rows) yield `${(ms / 1000).toFixed(1).padStart(7)}s  ${file.replace(process.cwd() + '/', '')}\n`;
  yield `${pass} passed, ${fail} failed, ${rows.length} files\n`;
}
