/**
 * The source's 18 prompt-writing rules and its pitfall table (SPEC §7), as data: `assistant rules`,
 * docs/recipes.md and `prompt lint` all read them from here. Recipe notes cite rules by number.
 * `checks` are the `prompt lint` checks that look for the rule being broken; `judgement` says what
 * of the rule a program cannot see, and why a person has to decide it.
 */
export interface WritingRule {
  number: number;
  /** The source's wording. */
  text: string;
  /** How findings cite it: "Rule N: <short>". */
  short: string;
  checks: string[];
  judgement?: string;
}

export const WRITING_RULES: WritingRule[] = [
  {
    number: 1,
    text: 'State the concrete problem (file, line, symptom) instead of a vague request.',
    short: 'state the concrete problem (file, line, symptom)',
    checks: ['vague-debugging', 'debugging-detail'],
    judgement: 'whether the symptom given is the real one, and precise enough to reproduce, only someone who saw it can tell',
  },
  {
    number: 2,
    text: 'For complex work, ask for analysis and a plan in `plan.md` first, then review, then execution.',
    short: 'plan complex work in plan.md first, then review, then execute',
    checks: ['no-plan-first'],
    judgement:
      'how complex a task is, the lint estimates from its words (migrate, rewrite, whole project); `assistant advise "task" --minutes 20` takes your estimate',
  },
  {
    number: 3,
    text: 'Give constraints and context (conventions, what not to touch).',
    short: 'give constraints and context (conventions, what not to touch)',
    checks: ['no-constraints'],
    judgement:
      'which constraints matter depends on the project; an ASSISTANT.md in the project counts as stating them (the lint sees only that it exists, not what it says)',
  },
  {
    number: 4,
    text: 'Refer to files with `@<path>`, do not paste code.',
    short: 'refer to files with @<path>, do not paste code',
    checks: ['pasted-code', 'bare-path'],
  },
  {
    number: 5,
    text: 'Name the tools allowed (for example only Read and Grep for a read-only analysis).',
    short: 'name the tools allowed',
    checks: ['no-tools-named'],
    judgement:
      'which tools a task needs beyond a read-only analysis is a choice; permission rules and Plan Mode enforce it, the prompt only asks',
  },
  {
    number: 6,
    text: 'Describe complex work in numbered steps and ask for confirmation before the step that changes files.',
    short: 'describe complex work in numbered steps, confirming before changes',
    checks: ['too-many-tasks', 'no-confirmation'],
    judgement: 'where the natural step boundaries lie in your code is for you to decide',
  },
  {
    number: 7,
    text: 'Ask for verification (run tests, fix, re-run).',
    short: 'ask for verification (run tests, fix, re-run)',
    checks: ['no-verification'],
    judgement: 'whether the tests named cover the change is a property of the test suite, not of the prompt',
  },
  {
    number: 8,
    text: 'Ask for a commit with a stated message format (requires the `Bash(git:*)` grant).',
    short: 'ask for a commit with a stated message format',
    checks: ['commit-format'],
  },
  {
    number: 9,
    text: 'Persona prompt: assign a professional role (senior engineer, security expert, QA engineer, DevOps engineer, technical writer).',
    short: 'give a persona (senior engineer, security expert, QA engineer …)',
    checks: ['no-role'],
    judgement: 'which role fits beyond reviews and audits is a matter of taste; the lint only hints',
  },
  {
    number: 10,
    text: 'Few-shot: give an example of the wanted output format.',
    short: 'few-shot: give an example of the wanted output',
    checks: ['format-without-example'],
    judgement:
      'a standard format (JSON, a Markdown table) needs no example; whether your format is standard enough, the lint cannot know, so it only flags a format named ("our format") but not shown',
  },
  {
    number: 11,
    text: 'Structured output: ask for JSON, YAML, CSV or a Markdown table and no extra text.',
    short: 'ask for structured output (JSON, YAML, CSV or a Markdown table)',
    checks: ['no-output-format'],
  },
  {
    number: 12,
    text: 'Negative constraints: state what must not change (signatures, dependencies, types, comments).',
    short: 'state what must not change (signatures, dependencies, types, comments)',
    checks: ['no-negative-constraint'],
    judgement: 'which signatures or files must stay is known only to someone who knows the callers',
  },
  {
    number: 13,
    text: 'Chaining: split work over sessions, one sub-task each, passing results through a file.',
    short: 'chain: one sub-task per session, passing results through a file',
    checks: ['too-many-tasks'],
    judgement: 'where to cut a task into sessions depends on its size and on how much context each part needs',
  },
  {
    number: 14,
    text: 'Progressive refinement: start coarse, add detail per round.',
    short: 'refine progressively: start coarse, add detail each round',
    checks: ['vague-feedback'],
    judgement:
      'the lint sees one prompt, not the rounds: it catches a round that adds no detail ("it is bad, try again"), but whether to start coarse is your call',
  },
  {
    number: 15,
    text: 'Context anchoring: cite file, line range and function.',
    short: 'anchor the context: cite file, line range and function',
    checks: ['no-anchor'],
    judgement: 'whether a file reference is enough or a line range is needed depends on the size of the file',
  },
  {
    number: 16,
    text: 'Step-by-step reasoning for complex diagnosis.',
    short: 'ask for step-by-step reasoning in a complex diagnosis',
    checks: ['no-step-by-step'],
    judgement: 'whether a diagnosis is complex the lint guesses from its words (intermittent, race, leak, only in production)',
  },
  {
    number: 17,
    text: 'Comparison prompts: list alternatives and dimensions, ask for a recommendation.',
    short: 'comparisons: list alternatives and dimensions, ask for a recommendation',
    checks: ['comparison'],
    judgement: "which dimensions matter (cost, speed, maintenance) is your priority, not the lint's",
  },
  {
    number: 18,
    text: 'Self-check, review-after-task and migration prompts, plus the ask-first mode (no code change until confirmed), read-only mode, user-simulation mode and old-versus-new comparison mode.',
    short: 'self-check, review-after-task and the special modes',
    checks: [],
    judgement:
      'a catalogue of patterns to choose from: which one a task calls for is a judgement about the task, and no wording of a prompt is wrong for lacking one (recipes 12, 21, 31 and 40 use them)',
  },
];

interface Pitfall {
  pitfall: string;
  remedy: string;
  check: string;
}

/** The source's "Common pitfalls" table, each with the lint check that finds it. */
export const PITFALLS: Pitfall[] = [
  { pitfall: 'Too much asked at once', remedy: 'Steps of 2 to 3 files each', check: 'too-many-tasks' },
  { pitfall: 'No constraints', remedy: 'State conventions in the convention file or prompt', check: 'no-constraints' },
  { pitfall: 'Only saying the result is bad', remedy: 'Say what is wrong and the wanted direction', check: 'vague-feedback' },
  { pitfall: 'Large pasted code', remedy: 'Use `@<path>` or `/compact`', check: 'pasted-code' },
  { pitfall: 'Tests ignored', remedy: 'Ask to run tests after the change', check: 'no-verification' },
  { pitfall: 'No role', remedy: 'Use a persona', check: 'no-role' },
  { pitfall: 'Format unclear', remedy: 'Name JSON, table or Markdown', check: 'no-output-format' },
  { pitfall: 'No negative constraints', remedy: 'Say what not to do', check: 'no-negative-constraint' },
];

export const ruleByNumber = (n: number): WritingRule | undefined => WRITING_RULES.find((r) => r.number === n);

/** `assistant rules [N]`: the rules, what checks each, what needs judgement; then the pitfalls. */
export function rulesText(only?: WritingRule): string {
  const out: string[] = [];
  const rules = only ? [only] : WRITING_RULES;
  if (!only) out.push("The 18 prompt-writing rules (the source's principles and patterns):", '');
  for (const r of rules) {
    out.push(`${String(r.number).padStart(2)}. ${r.text.replace(/`/g, '')}`);
    out.push(`    checked by prompt lint: ${r.checks.length ? r.checks.join(', ') : "no (a person's judgement)"}`);
    if (r.judgement) out.push(`    needs judgement: ${r.judgement.replace(/`/g, '')}`);
  }
  if (!only) {
    const w = Math.max(...PITFALLS.map((p) => p.pitfall.length));
    const v = Math.max(...PITFALLS.map((p) => p.remedy.length));
    out.push('', 'Common pitfalls, and the check that finds each:', '');
    for (const p of PITFALLS) out.push(`  ${p.pitfall.padEnd(w)}  ${p.remedy.replace(/`/g, '').padEnd(v)}  ${p.check}`);
    out.push('', 'Check a prompt: assistant prompt lint "your prompt"   One rule: assistant rules N');
  }
  return `${out.join('\n')}\n`;
}
