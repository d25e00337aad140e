import { library } from './load.ts';
import { MODE_NAMES, type Recipe, type Template } from './schema.ts';
import { stems } from './words.ts';

/**
 * `assistant advise`: the source's two tables ("Choosing a prompt") as a function.
 * Complexity: under 5 minutes → one-line template; 5 to 30 → recipe with constraints and verification;
 * over 30 → Plan Mode first, then the recipe in steps. Risk: low → Auto-Accept; medium → Normal;
 * high (production or core code) → Plan Mode, recipe and human review.
 */
export type Risk = 'low' | 'medium' | 'high';
export type Shape = 'template' | 'recipe' | 'plan-then-steps';

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

// Words that move the estimate; the rest of a task is "medium" by default, as most real tasks are.
const HIGH_RISK = /\b(prod(uction)?|core|auth\w*|login|payment|billing|security|secrets?|database|migrat\w*|schema|release|deploy\w*|delete|drop|credentials?|encryption|customer data|public api)\b/i;
const LOW_RISK = /\b(prototype|experiment\w*|personal|toy|demo|scratch|spike|sandbox|typo|comment|readme|docs?|explain|throwaway|side project)\b/i;
const QUICK = /\b(typo|rename|explain|comment|one[- ]line|small|quick|tiny|what does|jsdoc|regex|commit message)\b/i;
const LONG = /\b(refactor\w*|migrat\w*|upgrade|rewrite|architecture|redesign|whole|entire|every|all (?:the )?(?:modules|files|services)|across|system|framework|new project|from scratch|v1 to v2|monolith)\b/i;

function band(minutes: number): Advice['minutes']['band'] {
  return minutes < 5 ? '<5' : minutes <= 30 ? '5-30' : '>30';
}

/** Recipes whose keywords, title or scenario share the most words with the task (best first). */
function matchRecipes(task: string): Recipe[] {
  const words = new Set(stems(task));
  const text = task.toLowerCase();
  const scored = library().recipes.map((r) => {
    let score = 0;
    for (const k of r.keywords) {
      const ks = stems(k);
      if (ks.length > 1 ? text.includes(k.toLowerCase()) : ks.every((w) => words.has(w))) score += 3 * ks.length;
    }
    for (const w of new Set(stems(r.title))) if (words.has(w)) score += 1;
    return { r, score };
  });
  return scored.filter((s) => s.score >= 3).sort((a, b) => b.score - a.score || a.r.number - b.r.number).map((s) => s.r);
}

function matchTemplates(task: string): Template[] {
  const words = new Set(stems(task));
  return library().templates.filter((t) => stems(`${t.name} ${t.title}`).some((w) => words.has(w) && w.length > 3));
}

export function advise(task: string, o: { minutes?: number; risk?: Risk } = {}): Advice {
  const reasons: string[] = [];
  const minutes = o.minutes ?? (QUICK.test(task) && !LONG.test(task) ? 3 : LONG.test(task) ? 45 : 15);
  const risk: Risk = o.risk ?? (HIGH_RISK.test(task) ? 'high' : LOW_RISK.test(task) ? 'low' : 'medium');
  const b = band(minutes);
  // High risk always takes a recipe and a plan, however quick the task (the risk table).
  const shape: Shape = b === '<5' ? (risk === 'high' ? 'recipe' : 'template') : b === '5-30' ? 'recipe' : 'plan-then-steps';
  const estimated = o.minutes === undefined;
  reasons.push(
    b === '<5' ? `complexity: under 5 minutes${estimated ? ' (estimated; give --minutes)' : ''} → a one-sentence template${risk === 'high' ? ', but the risk asks for more' : ''}`
    : b === '5-30' ? `complexity: 5 to 30 minutes${estimated ? ' (estimated; give --minutes)' : ''} → a recipe with constraints and verification`
    : `complexity: over 30 minutes${estimated ? ' (estimated; give --minutes)' : ''} → Plan Mode first, then the recipe in steps`,
  );
  const riskMode = risk === 'low' ? 'auto-accept' : risk === 'medium' ? 'normal' : 'plan';
  reasons.push(
    risk === 'low' ? `risk: low${o.risk ? '' : ' (estimated; give --risk)'} → describe it directly in Auto-Accept`
    : risk === 'medium' ? `risk: medium${o.risk ? '' : ' (estimated; give --risk)'} → a recipe in Normal mode`
    : `risk: high${o.risk ? '' : ' (estimated: production or core code; give --risk)'} → Plan Mode, a recipe and human review`,
  );
  const mode = shape === 'plan-then-steps' ? 'plan' : riskMode;
  const thenMode = mode === 'plan' ? (risk === 'low' ? 'auto-accept' : 'normal') : undefined;
  const recipes = matchRecipes(task).slice(0, 3);
  const templates = shape === 'template' ? matchTemplates(task).slice(0, 2) : [];
  return {
    task, minutes: { value: minutes, estimated, band: b }, risk: { value: risk, estimated: o.risk === undefined },
    shape, mode, ...(thenMode ? { thenMode } : {}), humanReview: risk === 'high', reasons,
    recipes: recipes.map(({ number, title, mode: m }) => ({ number, title, mode: m })),
    templates: templates.map(({ number, name, title }) => ({ number, name, title })),
  };
}

export function adviceText(a: Advice): string {
  const lines: string[] = [];
  const shape = a.shape === 'template' ? 'a one-line template' : a.shape === 'recipe' ? 'a recipe with constraints and verification' : 'Plan Mode first (plan.md), then the recipe in steps of 2 to 3 files';
  lines.push(`Use ${shape}, in ${MODE_NAMES[a.mode]}${a.thenMode ? `, then ${MODE_NAMES[a.thenMode]} for the steps` : ''}${a.humanReview ? ', with a human review before anything ships' : ''}.`);
  lines.push('', 'Why:', ...a.reasons.map((r) => `  - ${r}`));
  if (a.templates.length) {
    lines.push('', 'Templates:', ...a.templates.map((t) => `  ${t.name.padEnd(10)} ${t.title}   assistant templates use ${t.name} --file PATH`));
  }
  if (a.recipes.length) {
    lines.push('', 'Recipes that fit:', ...a.recipes.map((r) => `  ${String(r.number).padStart(2)}  ${r.title} (${MODE_NAMES[r.mode]})   assistant recipes show ${r.number}`));
  } else {
    lines.push('', 'No recipe matches these words; browse them with: assistant recipes');
  }
  return `${lines.join('\n')}\n`;
}
