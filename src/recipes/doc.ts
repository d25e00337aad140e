import { LINT_RULES } from './lint.ts';
import { library } from './load.ts';
import { PITFALLS, WRITING_RULES } from './rules.ts';
import { CATEGORIES, MINUTES, MODE_NAMES } from './schema.ts';

const cell = (s: string) => s.replace(/\|/g, '\\|').replace(/\n/g, ' ');
const slotList = (r: { slots: string[]; fileSlot: boolean }) =>
  [...r.slots.map((s) => `\`[${s}]\``), ...(r.fileSlot ? ['`@<path>`'] : [])].join(', ') || '—';

/** docs/recipes.md, generated from the data files (`npm run docs`; a test checks it is current). */
export function recipesMarkdown(): string {
  const { recipes, templates } = library();
  const out: string[] = [
    '# Recipes and templates',
    '',
    '<!-- Generated from src/recipes/data by `npm run docs`; do not edit by hand. -->',
    '',
    `${recipes.length} prompt recipes and ${templates.length} one-line templates. Find one, fill its slots, run it in its mode:`,
    '',
    '```',
    'assistant recipes                      # the library, by category',
    'assistant recipes show 4               # one recipe, with its slots',
    'assistant recipes use 4 --set "module name=auth" --set "symptom=login returns HTTP 500" --file src/auth.ts',
    'assistant recipes run 4 …              # fill and run it in its mode (Plan Mode stops at plan.md and asks)',
    'assistant recipes chain 8 9 12 14 …    # run in order, passing results on through plan.md and review.md',
    'assistant recipes save 4 --as rca      # .assistant/commands/rca.md → /rca or /project:rca',
    'assistant templates                    # the one-line templates; templates use explain --file src/a.ts',
    'assistant advise "task" [--minutes N] [--risk low|medium|high]',
    'assistant rules [N]                    # the 18 prompt-writing rules, and what prompt lint checks',
    'assistant prompt lint "prompt"         # exit 1 when the prompt has findings',
    '```',
    '',
    'In a session: `/recipes`, `/recipe 4` (show), `/recipe 4 --set "module name=auth" --set "symptom=…" --file src/auth.ts` (run).',
    'Slots written `[name]` are filled with `--set "name=value"`; `@<path>` with `--file` (a file, directory or function reference).',
    'A missing slot is an error that names it; `--json` prints JSON for scripts.',
    '',
    '## Choosing a prompt (`assistant advise`)',
    '',
    '| By | Rule |',
    '|---|---|',
    '| Complexity | Under 5 minutes: a one-line template. 5 to 30 minutes: a recipe with constraints and verification. Over 30 minutes: Plan Mode first, then the recipe in steps. |',
    '| Risk | Low: describe it directly in Auto-Accept. Medium: a recipe in Normal. High (production or core code): Plan Mode, a recipe and human review. |',
    '',
    'Without `--minutes` or `--risk`, `advise` estimates them from the task\'s words (production, auth, payment: high; prototype, docs, typo: low), else from the recipe the task matches best (its complexity band, and its risk when low: high risk needs the words or `--risk`), else 15 minutes and medium risk, and says which. The modes table decides too: a task whose fitting template or recipe only reads and reports (explain, root cause, review) starts in Plan Mode. A quick task is never offered a 30-minute recipe: for "rename a variable" it says to describe it in one sentence.',
    '',
    '## The recipes',
    '',
    '| # | Category | Title | Mode | Complexity | Risk | Reads | Writes | Slots |',
    '|---|---|---|---|---|---|---|---|---|',
    ...recipes.map(
      (r) =>
        `| ${r.number} | ${r.category} | ${cell(r.title)} | ${MODE_NAMES[r.mode]} | ${MINUTES[r.complexity]} | ${r.risk} | ${r.reads.join(', ') || '—'} | ${r.writes.join(', ') || '—'} | ${slotList(r)} |`,
    ),
    '',
    '## The one-line templates',
    '',
    '| # | Name | Title | Mode | Template |',
    '|---|---|---|---|---|',
    ...templates.map((t) => `| ${t.number} | \`${t.name}\` | ${t.title} | ${MODE_NAMES[t.mode]} | ${cell(t.body)} |`),
    '',
    '## The prompt-writing rules (`assistant rules`)',
    '',
    "The source's 18 rules, as `assistant rules` prints them (`assistant rules 16` for one, `--json` for scripts). Recipe notes cite them by number.",
    "`prompt lint` checks the part of each rule that shows in a prompt's words; the last column says what only a person can judge, and why.",
    '',
    "| # | Rule | Checked by `prompt lint` | Needs a person's judgement |",
    '|---|---|---|---|',
    ...WRITING_RULES.map(
      (r) => `| ${r.number} | ${cell(r.text)} | ${r.checks.map((c) => `\`${c}\``).join(', ') || 'no'} | ${cell(r.judgement ?? '—')} |`,
    ),
    '',
    `${WRITING_RULES.filter((r) => r.checks.length).length} of the ${WRITING_RULES.length} rules have a check; rule 18 is a catalogue of patterns to choose from, which only a person can do. Where a check's words cannot prove a rule broken, it is a hint, not a finding.`,
    '',
    '### Common pitfalls',
    '',
    '| Pitfall | Remedy | Check |',
    '|---|---|---|',
    ...PITFALLS.map((p) => `| ${p.pitfall} | ${cell(p.remedy)} | \`${p.check}\` |`),
    '',
    '## Prompt lint',
    '',
    "`assistant prompt lint` checks a prompt against the writing rules and the pitfall table, without a model; a finding fails the check (exit 1), a hint does not. In a project with a convention file (`ASSISTANT.md`, or its fallbacks `AGENTS.md` and `CLAUDE.md`), its conventions count as the prompt's constraints (`no-constraints` stays quiet). The terminal UI shows the first two under the input as hints.",
    '',
    '| Check | Level | Rules | Pitfall | Remedy |',
    '|---|---|---|---|---|',
    ...LINT_RULES.map((l) => `| \`${l.id}\` | ${l.level} | ${l.rules.join(', ')} | ${l.pitfall ?? '—'} | ${cell(l.remedy)} |`),
    '',
    '## Recipes in full',
  ];
  for (const cat of CATEGORIES) {
    out.push('', `### ${cat}`);
    for (const r of recipes.filter((x) => x.category === cat)) {
      out.push(
        '',
        `#### ${r.number}. ${r.title}`,
        '',
        `*${MODE_NAMES[r.mode]} · ${MINUTES[r.complexity]} · ${r.risk} risk*${r.reads.length || r.writes.length ? ` · files: ${[...r.reads.map((f) => `reads ${f}`), ...r.writes.map((f) => `writes ${f}`)].join(', ')}` : ''}`,
        '',
        `**When:** ${r.scenario}`,
        '',
        '```text',
        r.body,
        '```',
        '',
        `**Note:** ${r.note}`,
      );
      if (r.why) out.push('', `**Why it works:** ${r.why}`);
    }
  }
  return `${out.join('\n')}\n`;
}
