/**
 * `assistant prompt lint`: a prompt checked against the source's writing rules and pitfall table
 * (SPEC §7; rules.ts). Deterministic, no model. Each finding names the rule and the remedy from the
 * pitfall table; the terminal UI shows them as hints, never blocking. A `finding` fails the check
 * (exit 1); a `hint` is advice where the words alone cannot prove the rule broken.
 */
import {
  ACTION_START,
  ANCHOR,
  ASKS_OUTPUT,
  BARE_PATH,
  BIG_SCOPE,
  CHANGE,
  CODE_FILE,
  CODE_LINE,
  COMMIT,
  COMMIT_FORMAT,
  COMPARE,
  CONFIRM,
  CONSTRAINT,
  DEBUGGING,
  DIMENSIONS,
  DIRECTION,
  DOCS_ONLY,
  EXAMPLE,
  FILE_REF,
  FORMAT,
  FORMAT_REFERRED,
  HARD_DIAGNOSIS,
  LINE_REF,
  LIST_ITEM,
  MENTIONS_CHECKS,
  NEGATIVE,
  NEW_THING,
  NUMBERED_STEP,
  PERSONA,
  PLAN_FIRST,
  READ_ONLY,
  RECOMMEND,
  REFACTOR,
  REVIEW,
  STEP_BY_STEP,
  SYMPTOM,
  TOOLS_NAMED,
  TRIVIAL,
  VAGUE,
} from './lint-patterns.ts';
import { ruleByNumber } from './rules.ts';
import { asksForVerification } from './verification.ts';

export interface Finding {
  id: string;
  /** `finding`: the prompt breaks a rule (exit 1); `hint`: advice that does not fail the check. */
  level: 'finding' | 'hint';
  /** The writing rule, e.g. "Rule 4: refer to files with @<path>, do not paste code". */
  rule: string;
  /** The numbers of the writing rules the check serves (`assistant rules N`). */
  rules: number[];
  /** The source's pitfall, where the table has one. */
  pitfall?: string;
  remedy: string;
  /** What in this prompt triggered it. */
  detail: string;
}

interface Check {
  id: string;
  hint?: true;
  rules: number[];
  pitfall?: string;
  remedy: string;
  /** The detail when the prompt has the problem. */
  test(p: Prompt): string | undefined;
}

/**
 * `text`: as typed; `prose`: without code blocks, and with file references written `@file`;
 * `conventionFile`: the project has ASSISTANT.md, which states its conventions for every prompt.
 */
interface Prompt {
  text: string;
  prose: string;
  conventionFile: boolean;
}

function pastedCode(text: string): string | undefined {
  const fence = text.match(/```[\s\S]*?(?:```|$)/g);
  if (fence) {
    const lines = fence.reduce((n, f) => n + f.split('\n').length - 2, 0);
    if (lines >= 3) return `a pasted code block of ${lines} lines`;
  }
  let run = 0;
  let best = 0;
  for (const l of text.split('\n')) {
    const code = !LIST_ITEM.test(l) && (CODE_LINE.test(l) || (run > 0 && /^\s{2,}\S/.test(l)));
    run = code ? run + 1 : l.trim() === '' && run > 0 ? run : 0;
    best = Math.max(best, run);
  }
  return best >= 3 ? `${best} lines of pasted code` : undefined;
}

/** Clauses that each ask for a separate change. */
function taskCount(prose: string): number {
  const clauses = prose
    .split(/(?:[.;!?\n]+|,\s*(?:and\s+|then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+)/)
    .map((c) => c.trim().replace(/^(?:\d+[.)]|[-*])\s*/, ''));
  return clauses.filter((c) => ACTION_START.test(c)).length;
}

const isChange = (p: Prompt) => CHANGE.test(p.prose) && !READ_ONLY.test(p.prose);
const proseOnly = (p: Prompt) => (DOCS_ONLY.test(p.text) && !CODE_FILE.test(p.text)) || TRIVIAL.test(p.prose);
const debugging = (p: Prompt) => DEBUGGING.test(p.prose);
const located = (p: Prompt) => FILE_REF.test(p.prose) || LINE_REF.test(p.prose);

/** By rule; lintPrompt puts findings first. The general no-constraints hint comes last. */
const CHECKS: Check[] = [
  {
    id: 'vague-debugging',
    rules: [1],
    remedy: 'Name the file (@<path>) and line, and the exact symptom: the error message, or what you expected and what happened',
    test: (p) =>
      debugging(p) && !located(p) && !SYMPTOM.test(p.prose) ? 'a debugging prompt with no file, no line and no symptom' : undefined,
  },
  {
    id: 'debugging-detail',
    hint: true,
    rules: [1],
    remedy: 'Add what is missing: the file (@<path>) and line, or the exact symptom',
    test: (p) => {
      if (!debugging(p)) return undefined;
      const where = located(p);
      return where === SYMPTOM.test(p.prose)
        ? undefined
        : where
          ? 'no symptom (error message, or expected versus actual)'
          : 'no file or line';
    },
  },
  {
    id: 'no-plan-first',
    hint: true,
    rules: [2],
    remedy:
      'Ask for the analysis and a plan in plan.md first, review it, then execute it step by step (recipe 8, or --permission-mode plan)',
    test: (p) =>
      isChange(p) && BIG_SCOPE.test(p.prose) && !PLAN_FIRST.test(p.prose)
        ? `complex work ("${BIG_SCOPE.exec(p.prose)![0]}") with no plan first`
        : undefined,
  },
  {
    id: 'pasted-code',
    rules: [4],
    pitfall: 'Large pasted code',
    remedy: 'Use @<path> (with a line range if it matters) or /compact instead of pasting',
    test: (p) => pastedCode(p.text),
  },
  {
    id: 'bare-path',
    hint: true,
    rules: [4],
    remedy: 'Write the path as @<path>: the assistant then reads the file with the prompt',
    test: (p) => {
      const m = BARE_PATH.exec(p.prose);
      return m ? `${m[0]} is named without @` : undefined;
    },
  },
  {
    id: 'no-tools-named',
    hint: true,
    rules: [5],
    remedy: 'Name the tools it may use, e.g. "use only Read and Grep", or run it in Plan Mode (--permission-mode plan)',
    test: (p) =>
      READ_ONLY.test(p.prose) && (ASKS_OUTPUT.test(p.prose) || REVIEW.test(p.prose)) && !TOOLS_NAMED.test(p.text)
        ? 'a read-only analysis that does not name the tools allowed'
        : undefined,
  },
  {
    id: 'too-many-tasks',
    rules: [6, 13],
    pitfall: 'Too much asked at once',
    remedy:
      'Split it into steps of 2 to 3 files each, or ask for a plan in plan.md first and run one step at a time (one sub-task per session: recipes chain)',
    test: (p) => {
      if (PLAN_FIRST.test(p.prose)) return undefined;
      const n = taskCount(p.prose);
      const files = new Set(p.text.match(/@[\w./~-]+/g) ?? []).size;
      if (n >= 4) return `${n} separate changes in one prompt`;
      if (files > 3 && CHANGE.test(p.prose) && !READ_ONLY.test(p.prose)) return `changes across ${files} files at once`;
      return undefined;
    },
  },
  {
    id: 'no-confirmation',
    hint: true,
    rules: [6],
    remedy: 'Ask it to stop for your confirmation before the step that changes files',
    test: (p) =>
      (p.prose.match(NUMBERED_STEP)?.length ?? 0) >= 3 && isChange(p) && !CONFIRM.test(p.prose)
        ? 'numbered steps that change files, with no confirmation asked before the changes'
        : undefined,
  },
  {
    id: 'no-verification',
    rules: [7],
    pitfall: 'Tests ignored',
    remedy: 'Ask to run the tests after the change (e.g. "then run npm test; fix and re-run, at most 2 fix attempts")',
    test: (p) =>
      isChange(p) && !proseOnly(p) && !PLAN_FIRST.test(p.prose) && !MENTIONS_CHECKS.test(p.prose) && !asksForVerification(p.prose)
        ? 'asks for a change but not for tests or any check afterwards'
        : undefined,
  },
  {
    id: 'commit-format',
    rules: [8],
    remedy:
      'State the commit message format (e.g. Conventional Commits "type(scope): subject", subject at most 50 characters); committing needs the Bash(git:*) grant',
    test: (p) => (COMMIT.test(p.prose) && !COMMIT_FORMAT.test(p.prose) ? 'asks for a commit without a message format' : undefined),
  },
  {
    id: 'no-role',
    hint: true,
    rules: [9],
    pitfall: 'No role',
    remedy: 'Start with a role, e.g. "Act as a senior security engineer"',
    test: (p) => (REVIEW.test(p.prose) && !PERSONA.test(p.prose) ? 'a review or audit with no role given' : undefined),
  },
  {
    id: 'format-without-example',
    hint: true,
    rules: [10],
    remedy: 'Show one example of the output you want (few-shot), or name a standard format',
    test: (p) => {
      const m = FORMAT_REFERRED.exec(p.text);
      return m && !EXAMPLE.test(p.text) ? `"${m[0]}" without an example of it` : undefined;
    },
  },
  {
    id: 'no-output-format',
    rules: [11],
    pitfall: 'Format unclear',
    remedy: 'Name the format: JSON, a Markdown table, a checklist, or sections with headings',
    test: (p) => (ASKS_OUTPUT.test(p.prose) && !FORMAT.test(p.prose) ? 'asks for a report or list but not in which format' : undefined),
  },
  {
    id: 'no-negative-constraint',
    rules: [12],
    pitfall: 'No negative constraints',
    remedy: 'Say what not to do, e.g. "keep public signatures unchanged, add no dependencies, do not touch tests"',
    test: (p) => (REFACTOR.test(p.prose) && !NEGATIVE.test(p.prose) ? 'a refactor with no "do not change …"' : undefined),
  },
  {
    id: 'vague-feedback',
    rules: [14],
    pitfall: 'Only saying the result is bad',
    remedy: 'Say what exactly is wrong and what you want instead',
    test: (p) =>
      VAGUE.test(p.prose) && !DIRECTION.test(p.prose) && !SYMPTOM.test(p.text)
        ? 'says the result is bad without saying what is wrong or what you want instead'
        : undefined,
  },
  {
    id: 'no-anchor',
    hint: true,
    rules: [15],
    remedy: 'Point at the code: the file (@<path>), the function, and the line range if it matters',
    test: (p) =>
      isChange(p) && !debugging(p) && !proseOnly(p) && !BIG_SCOPE.test(p.prose) && !NEW_THING.test(p.prose) && !ANCHOR.test(p.prose)
        ? 'names no file, function or line'
        : undefined,
  },
  {
    id: 'no-step-by-step',
    hint: true,
    rules: [16],
    remedy: 'Ask it to reason step by step: trace the code path, list candidate causes with the evidence for each, then conclude',
    test: (p) =>
      HARD_DIAGNOSIS.test(p.prose) && (debugging(p) || /\bwhy\b|\bcause\b|\bdiagnos/i.test(p.prose)) && !STEP_BY_STEP.test(p.prose)
        ? `a hard diagnosis ("${HARD_DIAGNOSIS.exec(p.prose)![0]}") with no step-by-step reasoning asked`
        : undefined,
  },
  {
    id: 'comparison',
    rules: [17],
    remedy: 'List the alternatives and the dimensions to compare them on (e.g. speed, cost, maintenance), and ask for a recommendation',
    test: (p) => {
      if (!COMPARE.test(p.prose)) return undefined;
      const missing = [
        DIMENSIONS.test(p.prose) ? '' : 'no dimensions to compare on',
        RECOMMEND.test(p.prose) ? '' : 'no recommendation asked for',
      ].filter(Boolean);
      return DIMENSIONS.test(p.prose) ? undefined : `a comparison with ${missing.join(' and ')}`;
    },
  },
  {
    id: 'no-constraints',
    hint: true,
    rules: [3],
    pitfall: 'No constraints',
    remedy: 'State the conventions and limits (what to follow, what not to touch) in the prompt, or once in ASSISTANT.md',
    test: (p) =>
      isChange(p) && !p.conventionFile && !proseOnly(p) && !CONSTRAINT.test(p.prose) && !NEGATIVE.test(p.prose)
        ? 'a change with no constraints or conventions (fine if ASSISTANT.md states them)'
        : undefined,
  },
];

/** Every check with the rules it serves (docs/recipes.md, `assistant rules`). */
export const LINT_RULES = CHECKS.map(({ id, hint, rules, pitfall, remedy }) => ({
  id,
  level: hint ? ('hint' as const) : ('finding' as const),
  rules,
  rule: ruleName(rules),
  pitfall,
  remedy,
}));

function ruleName(rules: number[]): string {
  const r = ruleByNumber(rules[0])!;
  return `Rule ${r.number}: ${r.short}`;
}

/** `conventionFile`: the project has an ASSISTANT.md (its conventions count as the prompt's constraints). */
export function lintPrompt(text: string, o: { conventionFile?: boolean } = {}): Finding[] {
  const prose = text
    .replace(/```[\s\S]*?(?:```|$)/g, ' ')
    .replace(/@[\w./~-]+/g, (m) => (m.includes('/') || m.includes('.') ? '@file' : m));
  const p: Prompt = { text, prose, conventionFile: o.conventionFile ?? false };
  const out: Finding[] = [];
  for (const c of CHECKS) {
    const detail = c.test(p);
    if (detail)
      out.push({
        id: c.id,
        level: c.hint ? 'hint' : 'finding',
        rule: ruleName(c.rules),
        rules: c.rules,
        ...(c.pitfall ? { pitfall: c.pitfall } : {}),
        remedy: c.remedy,
        detail,
      });
  }
  // Findings before hints: the terminal UI shows the first two.
  return [...out.filter((f) => f.level === 'finding'), ...out.filter((f) => f.level === 'hint')];
}

/** Findings that fail the check (hints do not). */
export const failing = (findings: Finding[]) => findings.filter((f) => f.level === 'finding');

export function findingsText(findings: Finding[]): string {
  const n = failing(findings).length;
  const lines = findings.map(
    (f) =>
      `${f.level === 'hint' ? 'hint:' : '✗'} ${f.detail}\n    rule:   ${f.rule}\n    remedy: ${f.remedy}${f.pitfall ? `  (pitfall: ${f.pitfall})` : ''}`,
  );
  lines.push(n === 0 ? 'No findings: the prompt follows the checked rules.' : `${n} finding${n === 1 ? '' : 's'}.`);
  lines.push('The rules, and which need your judgement: assistant rules');
  return `${lines.join('\n')}\n`;
}
