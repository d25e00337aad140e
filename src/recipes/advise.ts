import { library } from './load.ts';
import { MODE_NAMES, type Recipe, type Template } from './schema.ts';
import { stems } from './words.ts';

/**
 * `assistant advise`: the source's choosing rules ("Choosing a prompt", and the modes table) as a
 * function.
 * - Complexity: under 5 minutes → a one-line template; 5 to 30 → a recipe with constraints and
 *   verification; over 30 → Plan Mode first, then the recipe in steps.
 * - Risk: low → Auto-Accept; medium → Normal; high (production or core code) → Plan Mode, a recipe
 *   and human review.
 * - Modes: Plan Mode is for analysis and planning without changing code, so a task whose fitting
 *   recipe or template only reads and reports starts there whatever its risk.
 * Time and risk come from --minutes and --risk; else from the task's words; else from the recipe
 * the task matches best (its complexity and risk are the source's bands for that kind of task);
 * else 15 minutes and medium risk (a team project, the common case).
 */
export type Risk = 'low' | 'medium' | 'high';
type Shape = 'template' | 'recipe' | 'plan-then-steps';
type Level = Recipe['complexity'];

export interface Advice {
  task: string;
  minutes: { value: number; estimated: boolean; band: '<5' | '5-30' | '>30' };
  risk: { value: Risk; estimated: boolean };
  shape: Shape;
  /** The mode to start in, and the mode for the steps after a plan. */
  mode: 'plan' | 'normal' | 'auto-accept';
  thenMode?: 'normal' | 'auto-accept';
  humanReview: boolean;
  reasons: string[];
  recipes: Array<Pick<Recipe, 'number' | 'title' | 'mode'>>;
  templates: Array<Pick<Template, 'number' | 'name' | 'title'>>;
}

// Words that say how risky or how long a task is, whatever it matches.
const HIGH_RISK =
  /\b(prod(uction)?|core|auth\w*|login|payment|billing|security|secrets?|database|migrat\w*|schema|deploy\w*|delete|drop|credentials?|encryption|customer data|public api)\b/i;
const LOW_RISK =
  /\b(prototype|experiment\w*|personal|toy|demo|scratch|spike|sandbox|typo|comment|jsdoc|docstrings?|readme|docs?|explain|throwaway|side project)\b/i;
const QUICK = /\b(typo|rename|explain|comment|one[- ]line|small|quick|tiny|what does|jsdoc|regex|commit message)\b/i;
const LONG =
  /\b(refactor\w*|migrat\w*|upgrade|rewrite|architecture|redesign|whole|entire|every|all (?:the )?(?:modules|files|services)|across|system|framework|new project|from scratch|v1 to v2|monolith)\b/i;
/** Asking to read and report, when no recipe or template says what the task is. */
const ANALYSIS = /\b(explain|why|what does|how does|review|audit|assess|analy[sz]e|investigate|diagnose|find out|root cause)\b/i;
const CHANGES = /\b(fix|add|implement|change|update|rename|remove|delete|write|create|replace|convert|upgrade|migrate|refactor)\b/i;

const MINUTES_OF: Record<Level, number> = { low: 3, medium: 15, high: 45 };
const LEVEL_OF = { '<5': 'low', '5-30': 'medium', '>30': 'high' } as const;

function band(minutes: number): Advice['minutes']['band'] {
  return minutes < 5 ? '<5' : minutes <= 30 ? '5-30' : '>30';
}

/**
 * How well `keywords` match the task: 3 a word of each keyword found. A one-word keyword matches
 * the word's stem; a longer one its phrase, or all of its words in any order.
 */
function keywordScore(keywords: string[], words: Set<string>, text: string): number {
  let score = 0;
  for (const k of keywords) {
    const ks = stems(k);
    const phrase = k.trim().includes(' ');
    const said = new RegExp(`(?<![\\w-])${k.toLowerCase().replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}(?![\\w-])`).test(text);
    const hit = phrase && ks.length < 2 ? said : said || (ks.length > 0 && ks.every((w) => words.has(w)));
    if (hit) score += 3 * Math.max(1, ks.length);
  }
  return score;
}

/** Recipes whose keywords or title share words with the task, by that score alone (best first). */
function subjectMatches(task: string): Array<{ r: Recipe; score: number }> {
  const words = new Set(stems(task));
  const text = task.toLowerCase();
  return library()
    .recipes.map((r) => ({
      r,
      score: keywordScore(r.keywords, words, text) + [...new Set(stems(r.title))].filter((w) => words.has(w)).length,
    }))
    .filter((s) => s.score >= 3)
    .sort((a, b) => b.score - a.score || a.r.number - b.r.number);
}

function matchTemplates(task: string): Template[] {
  const words = new Set(stems(task));
  const text = task.toLowerCase();
  return library().templates.filter((t) => keywordScore(t.keywords, words, text) > 0);
}

/** Only reads and reports: runs in Plan Mode and writes nothing but plan.md. */
const readsOnly = (x: { mode: string; writes?: string[] }) => x.mode === 'plan' && (x.writes ?? []).every((f) => f === 'plan.md');

export function advise(task: string, o: { minutes?: number; risk?: Risk } = {}): Advice {
  const subject = subjectMatches(task);
  const best = subject[0]?.r;
  const wordMinutes = QUICK.test(task) && !LONG.test(task) ? 3 : LONG.test(task) ? 45 : undefined;
  const wordRisk: Risk | undefined = HIGH_RISK.test(task) ? 'high' : LOW_RISK.test(task) ? 'low' : undefined;
  const minutes = o.minutes ?? wordMinutes ?? (best ? MINUTES_OF[best.complexity] : 15);
  // High risk is "production or core code": only the words or --risk can say that of a task, so a
  // recipe's own high risk (the worst case of its scenario) counts as medium here.
  const risk: Risk = o.risk ?? wordRisk ?? (best?.risk === 'low' ? 'low' : 'medium');
  const b = band(minutes);
  // High risk always takes a recipe and a plan, however quick the task (the risk table).
  const shape: Shape = b === '<5' ? (risk === 'high' ? 'recipe' : 'template') : b === '5-30' ? 'recipe' : 'plan-then-steps';

  // Recipes that fit the task's size and risk as well as its subject: a quick task gets no
  // 30-minute recipe; among equal subjects, the recipe of the task's band and risk comes first.
  const level = LEVEL_OF[b];
  const recipes = subject
    .filter((s) => b !== '<5' || s.r.complexity === 'low')
    .map((s) => ({ r: s.r, rank: s.score + (s.r.complexity === level ? 2 : 0) + (s.r.risk === risk ? 1 : 0) }))
    .sort((x, y) => y.rank - x.rank || x.r.number - y.r.number)
    .map((s) => s.r)
    .slice(0, 3);
  const templates = shape === 'template' ? matchTemplates(task).slice(0, 2) : [];

  // The mode: Plan Mode for analysis (the modes table); else by risk, with a plan first for long
  // or high-risk work (the two choosing tables).
  const pick: { mode: string; writes?: string[] } | undefined = templates[0] ?? recipes[0];
  const pickName = templates[0] ? `template ${templates[0].name}` : recipes[0] ? `recipe ${recipes[0].number}` : undefined;
  // A plan-first recipe (impact assessment, 8) starts a change; one that writes nothing is an answer.
  const analysis = pick
    ? readsOnly(pick) && (!(pick.writes ?? []).length || !CHANGES.test(task))
    : ANALYSIS.test(task) && !CHANGES.test(task);
  const riskMode = risk === 'low' ? 'auto-accept' : risk === 'medium' ? 'normal' : 'plan';
  const mode = analysis || shape === 'plan-then-steps' ? 'plan' : riskMode;
  // After a plan there are steps to execute: a change, or an analysis whose result is plan.md.
  const planned = !analysis || (pick?.writes ?? []).includes('plan.md');
  const thenMode = mode === 'plan' && planned ? (risk === 'low' ? 'auto-accept' : 'normal') : undefined;

  const reasons = [
    complexityReason(b, o.minutes === undefined ? (wordMinutes !== undefined ? 'words' : best ? best : 'default') : 'given', risk),
  ];
  reasons.push(
    riskReason(risk, o.risk !== undefined ? 'given' : wordRisk !== undefined ? 'words' : best?.risk === 'low' ? best : 'default'),
  );
  if (analysis)
    reasons.push(`mode: the task reads and reports without changing code${pickName ? ` (${pickName} runs in Plan Mode)` : ''} → Plan Mode`);
  return {
    task,
    minutes: { value: minutes, estimated: o.minutes === undefined, band: b },
    risk: { value: risk, estimated: o.risk === undefined },
    shape,
    mode,
    ...(thenMode ? { thenMode } : {}),
    humanReview: risk === 'high',
    reasons,
    recipes: recipes.map(({ number, title, mode: m }) => ({ number, title, mode: m })),
    templates: templates.map(({ number, name, title }) => ({ number, name, title })),
  };
}

type Source = 'given' | 'words' | 'default' | Recipe;
const from = (s: Source, flag: string) =>
  s === 'given'
    ? ''
    : s === 'words'
      ? ` (estimated from the task's words; give ${flag})`
      : s === 'default'
        ? ` (assumed; give ${flag})`
        : ` (estimated from recipe ${s.number}; give ${flag})`;

function complexityReason(b: Advice['minutes']['band'], s: Source, risk: Risk): string {
  return b === '<5'
    ? `complexity: under 5 minutes${from(s, '--minutes')} → a one-sentence template${risk === 'high' ? ', but the risk asks for more' : ''}`
    : b === '5-30'
      ? `complexity: 5 to 30 minutes${from(s, '--minutes')} → a recipe with constraints and verification`
      : `complexity: over 30 minutes${from(s, '--minutes')} → Plan Mode first, then the recipe in steps`;
}

function riskReason(risk: Risk, s: Source): string {
  return risk === 'low'
    ? `risk: low${from(s, '--risk')} → describe it directly in Auto-Accept`
    : risk === 'medium'
      ? `risk: medium${from(s, '--risk')} → a recipe in Normal mode`
      : `risk: high${from(s, '--risk')} → Plan Mode, a recipe and human review`;
}

export function adviceText(a: Advice): string {
  const lines: string[] = [];
  const shape =
    a.shape === 'template'
      ? 'a one-line template'
      : a.shape === 'recipe'
        ? 'a recipe with constraints and verification'
        : 'Plan Mode first (plan.md), then the recipe in steps of 2 to 3 files';
  const modes =
    a.shape === 'plan-then-steps'
      ? a.thenMode
        ? ` in ${MODE_NAMES[a.thenMode]}`
        : ''
      : `, in ${MODE_NAMES[a.mode]}${a.thenMode ? `, then ${MODE_NAMES[a.thenMode]} for the steps` : ''}`;
  lines.push(`Use ${shape}${modes}${a.humanReview ? ', with a human review before anything ships' : ''}.`);
  lines.push('', 'Why:', ...a.reasons.map((r) => `  - ${r}`));
  if (a.templates.length) {
    lines.push(
      '',
      'Templates:',
      ...a.templates.map((t) => `  ${t.name.padEnd(10)} ${t.title}   assistant templates use ${t.name} --file PATH`),
    );
  }
  if (a.recipes.length) {
    lines.push(
      '',
      'Recipes that fit:',
      ...a.recipes.map((r) => `  ${String(r.number).padStart(2)}  ${r.title} (${MODE_NAMES[r.mode]})   assistant recipes show ${r.number}`),
    );
  } else if (!a.templates.length) {
    lines.push(
      '',
      a.shape === 'template'
        ? 'No template or recipe fits: describe it in one sentence, with the file (@<path>) and what to change.'
        : 'No recipe matches these words; browse them with: assistant recipes',
    );
  }
  return `${lines.join('\n')}\n`;
}
