/**
 * `assistant prompt lint`: a prompt checked against the source's writing rules and pitfall table
 * (SPEC §7). Deterministic, no model. Each finding names the rule and the remedy from the pitfall
 * table; the terminal UI shows them as hints, never blocking.
 */
import { asksForVerification } from './verification.ts';

export interface Finding {
  id: string;
  /** `finding`: the prompt breaks a rule (exit 1); `hint`: advice that does not fail the check. */
  level: 'finding' | 'hint';
  /** The writing rule, e.g. "Rule 4: refer to files with @<path>, do not paste code". */
  rule: string;
  /** The source's pitfall, where the table has one. */
  pitfall?: string;
  remedy: string;
  /** What in this prompt triggered it. */
  detail: string;
}

interface Check {
  id: string;
  hint?: true;
  rule: string;
  pitfall?: string;
  remedy: string;
  /** The detail when the prompt has the problem. */
  test(p: Prompt): string | undefined;
}

/** `text`: as typed; `prose`: without code blocks, file references and conditional clauses ("if it fails, …"). */
interface Prompt { text: string; prose: string }

const FILE_REF = /@[\w./~-]+|\b[\w-]+(?:\/[\w.-]+)*\.(?:[a-z]{1,5})(?::\d+)?\b|\b(?:src|lib|test|tests|app|pkg)\/[\w./-]+/i;
const LINE_REF = /\bline[s]? \d+|:\d+\b|\bL\d+\b/i;
const SYMPTOM = /["'`“][^"'`”]{4,}["'`”]|\b\w*(?:Error|Exception)\b|\berror:|\bstatus(?: code)? \d{3}\b|\b[45]\d\d\b|\bexpected\b|\bshould\b|\binstead\b|\bbut (?:it )?(?:gets?|got|shows?|returns?|prints?)\b|\bstack trace\b|\breturns? (?:null|undefined|nan|none|\d+|an? \w+)\b|\bshows?\b|\bafter \d+|\btimes? out\b|\bhangs?\b|\bsegfault\b|\bpanic\b|\bleaks?\b/i;
const DEBUGGING = /\b(bug|crash(?:es|ed|ing)?|broken|doesn'?t work|does not work|not working|wrong result|fails (?:when|on|with|for)|is failing|keeps failing)\b/i;
/** Changes too small to test, whatever the file. */
const TRIVIAL = /\b(typo|wording|spelling|misspell\w*)\b/i;
/** Changes to prose (docs, comments, README) need no test run. */
const DOCS_ONLY = /\b(readme|docs?|documentation|comments?|changelog|jsdoc|docstrings?|typo|wording|spelling)\b|\.md\b/i;
/** A reference to a source file (not prose: .md, .txt, .rst). */
const CODE_FILE = /@?[\w./~-]+\.(?!md\b|txt\b|rst\b|adoc\b)[a-z]{1,5}\b/i;
const CHANGE = /\b(fix|add|implement|refactor|change|update|rename|migrate|remove|delete|rewrite|create|write (?:a |the )?(?:function|module|class|code|endpoint)|replace|convert|upgrade|move|extract|optimi[sz]e|edit)\b/i;
const READ_ONLY = /\b(do not|don't|without) (?:change|chang|modify|edit|touch)\w* (?:any )?(?:code|files?|anything)\b|\bchange no (?:code|files?)\b|\bno code changes?\b|\bread[- ]only\b|\bplan mode\b|\bonly (?:analy|explain|list|report|review)|\banaly[sz]e only\b/i;
/** A prompt that mentions tests or checks at all has not ignored them (the pitfall); asking to run them is verification.ts's. */
const MENTIONS_CHECKS = /\b(tests?|verify|verification|self-check|lint|typecheck|type-check|compile|ci)\b|\bcheck (?:that|it|the (?:build|output|result))\b|\bbuild (?:passes|succeeds)\b/i;
const ASKS_OUTPUT = /\b(summari[sz]e|analy[sz]e|review|compare|audit|assess|evaluate|overview|inventory|rank|(?:a|write a|give me a) report|report on)\b/i;
const FORMAT = /\b(table|json|yaml|csv|markdown|bullets?|bulleted|numbered|checklist|format|sections?|headings?|one (?:line|row) (?:each|per)|one per line|columns?|list|in (?:\d+|one|two|three) (?:words|sentences|lines|paragraphs?))\b/i;
const REFACTOR = /\b(refactor\w*|restructur\w*|rewrite|clean ?up|reorgani[sz]e|migrat\w*|split|extract|simplif\w*|moderni[sz]e|dedupe|deduplicat\w*)\b/i;
const NEGATIVE = /\b(do not|don't|never|must not|mustn't|without|keep\b[^.]{0,60}\b(unchanged|as is|the same|intact)|unchanged|leave\b[^.]{0,40}\balone|no (?:new |other )?(?:dependenc|change|api)|only (?:change|touch|modify|edit))/i;
const PLAN_FIRST = /\bplan\.md\b|\bplan first\b|\bstep by step\b|\bone (?:at a time|step|batch)\b|\bwait for (?:my )?confirm|\bconfirm (?:before|with me)\b|\bin (?:steps|batches)\b/i;
const VAGUE = /\b(it'?s|this is|that'?s|looks?|is still|still) (?:bad|wrong|terrible|awful|broken|not (?:good|right|working)|off|ugly|worse)\b|\b(doesn'?t|does not|still doesn'?t) work\b|\btry again\b|\bredo it\b|\bnot what i (?:want|asked)/i;
const DIRECTION = /\b(should|instead|expected|expect|want|so that|because|needs? to|must|rather than|the goal|like this|e\.g\.|for example)\b/i;
const REVIEW = /\b(review|audit|assess)\b/i;
const PERSONA = /\b(act as|you are an?|as an? (?:senior|expert|experienced|security|qa|devops|staff|principal|technical)|persona|role of)\b/i;
const ACTION_START = /^(?:please |also |then |and |finally )*(?:fix|add|implement|refactor|change|update|rename|migrate|remove|delete|rewrite|create|write|replace|convert|upgrade|move|extract|optimi[sz]e|document|test|set up|setup|configure|build|deploy|install|make)\b/i;

/** A Markdown list item: prose, even when it ends with ";". */
const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;
/** Lines that look like code, outside a fenced block. */
const CODE_LINE = /^\s*(?:[{}()[\];]+\s*$|(?:const|let|var|function|class|import|export|return|if|for|while|public|private|func|fn|package|#include)\b.*[;{(=)]\s*$|(?:def|class)\s+\w+.*:\s*$|(?:print|console\.log)\(.*\)\s*;?$|\w[\w.]*\s*=\s*[^=].*;\s*$)/;

function pastedCode(text: string): string | undefined {
  const fence = text.match(/```[\s\S]*?(?:```|$)/g);
  if (fence) {
    const lines = fence.reduce((n, f) => n + f.split('\n').length - 2, 0);
    if (lines >= 3) return `a pasted code block of ${lines} lines`;
  }
  let run = 0; let best = 0;
  for (const l of text.split('\n')) {
    const code = !LIST_ITEM.test(l) && (CODE_LINE.test(l) || (run > 0 && /^\s{2,}\S/.test(l)));
    run = code ? run + 1 : l.trim() === '' && run > 0 ? run : 0;
    best = Math.max(best, run);
  }
  return best >= 3 ? `${best} lines of pasted code` : undefined;
}

/** Clauses that each ask for a separate change. */
function taskCount(prose: string): number {
  const clauses = prose.split(/(?:[.;!?\n]+|,\s*(?:and\s+|then\s+)?|\s+and\s+(?:then\s+)?|\s+then\s+)/).map((c) => c.trim().replace(/^(?:\d+[.)]|[-*])\s*/, ''));
  return clauses.filter((c) => ACTION_START.test(c)).length;
}

const CHECKS: Check[] = [
  {
    id: 'pasted-code', rule: 'Rule 4: refer to files with @<path>, do not paste code', pitfall: 'Large pasted code',
    remedy: 'Use @<path> (with a line range if it matters) or /compact instead of pasting',
    test: (p) => pastedCode(p.text),
  },
  {
    id: 'vague-debugging', rule: 'Rule 1: state the concrete problem (file, line, symptom)',
    remedy: 'Name the file (@<path>) and line, and the exact symptom: the error message, or what you expected and what happened',
    test: (p) => {
      if (!DEBUGGING.test(p.prose)) return undefined;
      const where = FILE_REF.test(p.prose) || LINE_REF.test(p.prose);
      const what = SYMPTOM.test(p.prose);
      return where || what ? undefined : 'a debugging prompt with no file, no line and no symptom';
    },
  },
  {
    id: 'debugging-detail', hint: true, rule: 'Rule 1: state the concrete problem (file, line, symptom)',
    remedy: 'Add what is missing: the file (@<path>) and line, or the exact symptom',
    test: (p) => {
      if (!DEBUGGING.test(p.prose)) return undefined;
      const where = FILE_REF.test(p.prose) || LINE_REF.test(p.prose);
      const what = SYMPTOM.test(p.prose);
      return where === what ? undefined : where ? 'no symptom (error message, or expected versus actual)' : 'no file or line';
    },
  },
  {
    id: 'vague-feedback', rule: 'Say what is wrong and the wanted direction', pitfall: 'Only saying the result is bad',
    remedy: 'Say what exactly is wrong and what you want instead',
    test: (p) => (VAGUE.test(p.prose) && !DIRECTION.test(p.prose) && !SYMPTOM.test(p.text) ? 'says the result is bad without saying what is wrong or what you want instead' : undefined),
  },
  {
    id: 'no-verification', rule: 'Rule 7: ask for verification (run tests, fix, re-run)', pitfall: 'Tests ignored',
    remedy: 'Ask to run the tests after the change (e.g. "then run npm test; fix and re-run, at most 2 fix attempts")',
    test: (p) => (CHANGE.test(p.prose) && !TRIVIAL.test(p.prose) && !(DOCS_ONLY.test(p.text) && !CODE_FILE.test(p.text)) && !READ_ONLY.test(p.prose) && !PLAN_FIRST.test(p.prose) && !MENTIONS_CHECKS.test(p.prose) && !asksForVerification(p.prose) ? 'asks for a change but not for tests or any check afterwards' : undefined),
  },
  {
    id: 'no-output-format', rule: 'Rule 11: ask for structured output (JSON, YAML, CSV or a Markdown table)', pitfall: 'Format unclear',
    remedy: 'Name the format: JSON, a Markdown table, a checklist, or sections with headings',
    test: (p) => (ASKS_OUTPUT.test(p.prose) && !FORMAT.test(p.prose) ? 'asks for a report or list but not in which format' : undefined),
  },
  {
    id: 'no-negative-constraint', rule: 'Rule 12: state what must not change (signatures, dependencies, types, comments)', pitfall: 'No negative constraints',
    remedy: 'Say what not to do, e.g. "keep public signatures unchanged, add no dependencies, do not touch tests"',
    test: (p) => (REFACTOR.test(p.prose) && !NEGATIVE.test(p.prose) ? 'a refactor with no "do not change …"' : undefined),
  },
  {
    id: 'too-many-tasks', rule: 'Rule 6: describe complex work in numbered steps, confirming before changes', pitfall: 'Too much asked at once',
    remedy: 'Split it into steps of 2 to 3 files each, or ask for a plan in plan.md first and run one step at a time',
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
    id: 'no-role', hint: true, rule: 'Rule 9: give a persona (senior engineer, security expert, QA engineer …)', pitfall: 'No role',
    remedy: 'Start with a role, e.g. "Act as a senior security engineer"',
    test: (p) => (REVIEW.test(p.prose) && !PERSONA.test(p.prose) ? 'a review or audit with no role given' : undefined),
  },
];

export const LINT_RULES = CHECKS.map(({ id, rule, pitfall, remedy }) => ({ id, rule, pitfall, remedy }));

export function lintPrompt(text: string): Finding[] {
  const prose = text.replace(/```[\s\S]*?(?:```|$)/g, ' ').replace(/@[\w./~-]+/g, (m) => (m.includes('/') || m.includes('.') ? '@file' : m));
  const p: Prompt = { text, prose };
  const out: Finding[] = [];
  for (const c of CHECKS) {
    const detail = c.test(p);
    if (detail) out.push({ id: c.id, level: c.hint ? 'hint' : 'finding', rule: c.rule, ...(c.pitfall ? { pitfall: c.pitfall } : {}), remedy: c.remedy, detail });
  }
  return out;
}

/** Findings that fail the check (hints do not). */
export const failing = (findings: Finding[]) => findings.filter((f) => f.level === 'finding');

export function findingsText(findings: Finding[]): string {
  const n = failing(findings).length;
  const lines = findings.map((f) => `${f.level === 'hint' ? 'hint:' : '✗'} ${f.detail}\n    rule:   ${f.rule}\n    remedy: ${f.remedy}${f.pitfall ? `  (pitfall: ${f.pitfall})` : ''}`);
  lines.push(n === 0 ? 'No findings: the prompt follows the checked rules.' : `${n} finding${n === 1 ? '' : 's'}.`);
  return `${lines.join('\n')}\n`;
}
