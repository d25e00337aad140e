/**
 * Whether a prompt asks for verification, and which command it names (SPEC §8; writing rule 7).
 * One detector for the agent's verification loop (agent/verify.ts) and `prompt lint` (lint.ts), so
 * a prompt the lint accepts as "asks for tests" is one the loop verifies, with the command the
 * user wrote: "…and run the tests with `npx ava`" runs `npx ava`, not the project's `npm test`.
 */

/** Programs that run tests or checks, as the first word of a command (after npx, pnpm exec, …). */
const RUNNERS = [
  'ava',
  'jest',
  'vitest',
  'mocha',
  'tap',
  'tape',
  'karma',
  'jasmine',
  'playwright',
  'cypress',
  'uvu',
  'c8',
  'nyc',
  'pytest',
  'tox',
  'nox',
  'unittest',
  'rspec',
  'phpunit',
  'pest',
  'ctest',
  'tsc',
  'eslint',
  'biome',
  'ruff',
  'mypy',
  'pyright',
  'flake8',
  'pylint',
  'shellcheck',
  'golangci-lint',
  'clippy',
];
/** Subcommands that test or check: `cargo test`, `go vet`, `npm run test:unit`, `make check`. */
const TOOL_SUBCOMMAND = String.raw`(?:(?:npm|pnpm|yarn|bun)(?: run)? (?:test|check|lint|typecheck|type-check|verify|ci)(?:[:.-][\w:.-]*)?|(?:cargo|go|deno|dotnet|mvn|gradle|\./gradlew|mix|swift|rake|zig build) (?:test|check|vet|clippy|nextest)\b|make (?:test|check|lint)\b|node --test\b|python3? -m (?:pytest|unittest|mypy)\b|bundle exec (?:rspec|rake test)\b|bun test\b)`;
const RUNNER = String.raw`(?:(?:npx|bunx|pnpm exec|pnpm dlx|yarn|uv run|poetry run) )?(?:${RUNNERS.join('|')})\b`;
/** A test or check command at the start of a text, with the flags and paths that follow it. */
const COMMAND_START = new RegExp(
  String.raw`^(?:${TOOL_SUBCOMMAND}|${RUNNER})(?: (?:-[\w=:.,/-]+|\.{0,2}/[\w./*-]*|[\w.-]+/[\w./*-]*|[\w-]+\.[\w]{1,5}))*`,
  'i',
);

/** "run", "re-run", "execute" … then the command (not quoted). */
const RUN_WORD = /\b(?:run|re-?run|execute)\s+/gi;
/** The words before a quoted command that make it the verification command. */
const VERIFY_BEFORE =
  /\b(?:run|re-?run|execute|verify|check|test|tests|suite|confirm)\b[^.`\n]{0,40}?\b(?:with|using|via|by running|:)\s*$|\b(?:run|re-?run|execute)\s+$/i;
/** A negation just before: "do not run the tests", "without running jest". */
const NEGATED = /\b(?:do not|don't|dont|never|no need to|without|skip|not)\b[^.;,\n]{0,20}$/i;

const ASKS = [
  /\b(?:run|re-?run|execute)\b[^.\n]{0,40}\b(?:tests?|test suite|suite|specs?|checks?|linter|type ?check)\b/i,
  /\b(?:make sure|ensure|check|confirm|verify)\b[^.\n]{0,40}\b(?:tests?|suite|specs?|build|checks?|ci)\b[^.\n]{0,20}\b(?:pass(?:es|ing)?|green|succeeds?|still works?|compiles?)\b/i,
  /\bkeep\b[^.\n]{0,20}\b(?:tests?|suite|build|ci)\b[^.\n]{0,10}\b(?:passing|green)\b/i,
  /\b(?:tests?|suite|build) (?:must|should) (?:still )?pass\b/i,
  /\bverify (?:it|that|this|each|every|the (?:fix|change|result)e?s?)\b/i,
];

/** The test or check command the prompt names (quoted in backticks, or after "run"), if any. */
export function namedVerifyCommand(prompt: string): string | undefined {
  for (const m of prompt.matchAll(/`([^`\n]{2,120})`/g)) {
    const cmd = m[1].trim();
    const before = prompt.slice(0, m.index);
    if (NEGATED.test(before)) continue;
    if (COMMAND_START.exec(cmd)?.[0] || VERIFY_BEFORE.test(before)) return cmd;
  }
  for (const m of prompt.matchAll(RUN_WORD)) {
    const cmd = COMMAND_START.exec(prompt.slice(m.index + m[0].length))?.[0];
    if (cmd && !NEGATED.test(prompt.slice(0, m.index))) return cmd.replace(/[,;:]+$/, '').replace(/(?<![./])\.$/, ''); // the sentence's full stop, not `./...`
  }
  return undefined;
}

/** Whether the prompt asks for its change to be verified: tests run, a check named, "make sure the suite passes". */
export function asksForVerification(prompt: string): boolean {
  for (const re of ASKS) {
    const m = re.exec(prompt);
    if (m && !NEGATED.test(prompt.slice(0, m.index) + m[0].split(/\s/)[0])) return true;
  }
  return namedVerifyCommand(prompt) !== undefined;
}
