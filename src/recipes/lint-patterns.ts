/**
 * The word patterns of `prompt lint` (lint.ts): what in a prompt's wording shows that a writing
 * rule is kept or broken. Heuristics by nature; test/recipes/lint.test.ts holds the prompts they
 * must judge right, good and bad.
 */

export const FILE_REF = /@[\w./~-]+|\b[\w-]+(?:\/[\w.-]+)*\.(?:[a-z]{1,5})(?::\d+)?\b|\b(?:src|lib|test|tests|app|pkg)\/[\w./-]+/i;
export const LINE_REF = /\bline[s]? \d+|:\d+\b|\bL\d+\b/i;
export const SYMPTOM =
  /["'`\u201c][^"'`\u201d]{4,}["'`\u201d]|\b\w*(?:Error|Exception)\b|\berror:|\bstatus(?: code)? \d{3}\b|\b[45]\d\d\b|\bexpected\b|\bshould\b|\binstead\b|\bbut (?:it )?(?:gets?|got|shows?|returns?|prints?)\b|\bstack trace\b|\breturns? (?:null|undefined|nan|none|\d+|an? \w+)\b|\bshows?\b|\bafter \d+|\btimes? out\b|\bhangs?\b|\bsegfault\b|\bpanic\b|\bleaks?\b/i;
export const DEBUGGING =
  /\b(bug|crash(?:es|ed|ing)?|broken|doesn'?t work|does not work|not working|wrong result|fails (?:when|on|with|for)|is failing|keeps failing)\b/i;
/** Changes too small to test, whatever the file. */
export const TRIVIAL = /\b(typo|wording|spelling|misspell\w*)\b/i;
/** Changes to prose (docs, comments, README) need no test run. */
export const DOCS_ONLY = /\b(readme|docs?|documentation|comments?|changelog|jsdoc|docstrings?|typo|wording|spelling)\b|\.md\b/i;
/** A reference to a source file (not prose: .md, .txt, .rst). */
export const CODE_FILE = /@?[\w./~-]+\.(?!md\b|txt\b|rst\b|adoc\b)[a-z]{1,5}\b/i;
export const CHANGE =
  /\b(fix|add|implement|refactor|change|update|rename|migrate|remove|delete|rewrite|create|write (?:a |the )?(?:function|module|class|code|endpoint)|replace|convert|upgrade|move|extract|optimi[sz]e|edit)\b/i;
export const READ_ONLY =
  /\b(do not|don't|without) (?:change|chang|modify|edit|touch)\w* (?:any )?(?:code|files?|anything)\b|\bchange no (?:code|files?)\b|\bno code changes?\b|\bread[- ]only\b|\bplan mode\b|\bonly (?:analy|explain|list|report|review)|\banaly[sz]e only\b/i;
/** A prompt that mentions tests or checks at all has not ignored them (the pitfall); asking to run them is verification.ts's. */
export const MENTIONS_CHECKS =
  /\b(tests?|verify|verification|self-check|lint|typecheck|type-check|compile|ci)\b|\bcheck (?:that|it|the (?:build|output|result))\b|\bbuild (?:passes|succeeds)\b/i;
export const ASKS_OUTPUT =
  /\b(summari[sz]e|analy[sz]e|review|compare|audit|assess|evaluate|overview|inventory|rank|(?:a|write a|give me a) report|report on)\b/i;
export const FORMAT =
  /\b(table|json|yaml|csv|markdown|bullets?|bulleted|numbered|checklist|format|sections?|headings?|one (?:line|row) (?:each|per)|one per line|columns?|list|in (?:\d+|one|two|three) (?:words|sentences|lines|paragraphs?))\b/i;
export const REFACTOR =
  /\b(refactor\w*|restructur\w*|rewrite|clean ?up|reorgani[sz]e|migrat\w*|split|extract|simplif\w*|moderni[sz]e|dedupe|deduplicat\w*)\b/i;
export const NEGATIVE =
  /\b(do not|don't|never|must not|mustn't|without|keep\b[^.]{0,60}\b(unchanged|as is|the same|intact)|unchanged|leave\b[^.]{0,40}\balone|no (?:new |other )?(?:dependenc|change|api)|only (?:change|touch|modify|edit))/i;
export const PLAN_FIRST =
  /\bplan\.md\b|\bplan first\b|\bstep by step\b|\bone (?:at a time|step|batch)\b|\bwait for (?:my )?confirm|\bconfirm (?:before|with me)\b|\bin (?:steps|batches)\b/i;
export const VAGUE =
  /\b(it'?s|this is|that'?s|looks?|is still|still) (?:bad|wrong|terrible|awful|broken|not (?:good|right|working)|off|ugly|worse)\b|\b(doesn'?t|does not|still doesn'?t) work\b|\btry again\b|\bredo it\b|\bnot what i (?:want|asked)/i;
export const DIRECTION =
  /\b(should|instead|expected|expect|want|so that|because|needs? to|must|rather than|the goal|like this|e\.g\.|for example)\b/i;
export const REVIEW = /\b(review|audit|assess)\b/i;
export const PERSONA =
  /\b(act as|you are an?|as an? (?:senior|expert|experienced|security|qa|devops|staff|principal|technical)|persona|role of)\b/i;
export const ACTION_START =
  /^(?:please |also |then |and |finally )*(?:fix|add|implement|refactor|change|update|rename|migrate|remove|delete|rewrite|create|write|replace|convert|upgrade|move|extract|optimi[sz]e|document|test|set up|setup|configure|build|deploy|install|make)\b/i;
/** Lines that look like code, outside a fenced block. */
export const CODE_LINE =
  /^\s*(?:[{}()[\];]+\s*$|(?:const|let|var|function|class|import|export|return|if|for|while|public|private|func|fn|package|#include)\b.*[;{(=)]\s*$|(?:def|class)\s+\w+.*:\s*$|(?:print|console\.log)\(.*\)\s*;?$|\w[\w.]*\s*=\s*[^=].*;\s*$)/;

// Added with the remaining writing rules (rules.ts).
/** Conventions or limits of any kind (rule 3, pitfall "No constraints"). */
export const CONSTRAINT =
  /\b(only|keep|must|follow(?:ing|s)?|according to|conventions?|ASSISTANT\.md|style|at most|no more than|limit\w*|consistent|existing|same|compatib\w*|without|within|except)\b/i;
/** A path written without @ (rule 4): `src/auth.ts`, not `@src/auth.ts`, a URL or `code`. */
export const BARE_PATH = /(?<![@\w./:`~-])(?:\.{1,2}\/)?(?:[\w-]+\/)+[\w.-]+\.[a-z]{1,5}\b(?![\w/])/i;
/** Tools named (rule 5). */
export const TOOLS_NAMED = /\b(?:Read|Grep|Glob|LS|Bash|Edit|Write)\b|\b(?:read-only|reading|search) tools\b|\bplan mode\b/;
/** Work too large for one go (rule 2). */
export const BIG_SCOPE =
  /\b(whole|entire|every (?:file|module|service|endpoint)|all (?:the )?(?:modules|files|services|endpoints|callers)|across the (?:code ?base|project|repo\w*|app)|migrat\w*|rewrite|from scratch|architecture|redesign|monolith|framework)\b/i;
/** Numbered steps (rule 6). */
export const NUMBERED_STEP = /^\s*\d+[.)]\s+\S/gm;
export const CONFIRM =
  /\bconfirm\w*\b|\bwait for\b|\bstop (?:and|there|after)\b|\bapprov\w*|\bbefore (?:you )?(?:change|edit|writ|touch)\w*/i;
/** Asks for a commit (rule 8), and a message format. */
export const COMMIT =
  /\b(?:git commit|(?:and|then|please|,) commit\b|^commit\b|(?:make|create) (?:a |one )?commit\b|commit (?:the |these |your |all |my )?(?:changes?|it|them|this|everything|work|fix)\b)/im;
export const COMMIT_FORMAT =
  /\bconventional commits?\b|\bformat\b|\bsubject\b|\bmessage\b|\b(?:feat|fix|chore|docs|refactor)(?:\([\w-]+\))?:|\bprefix\b|["'\u201c][^"'\u201d]{3,}["'\u201d]/i;
/** A format referred to but not spelled out (rule 10), and an example of it. */
export const FORMAT_REFERRED =
  /\b(?:in|use|using|follow(?:ing)?|match(?:ing)?) (?:our|the (?:usual|same|following|project'?s|team'?s|house|standard)|this|my) (?:format|style|template|structure|layout|convention)\b/i;
export const EXAMPLE = /\be\.g\.|\bfor example\b|\bexample:|\bsuch as\b|\blike this\b|```|:\s*\n|["\u201c][^"\u201d]{6,}["\u201d]/i;
/** Something located in the code (rule 15): a file, a function, a line, a named symbol. */
export const ANCHOR = /@[\w./~-]+|\b[\w-]+(?:\/[\w.-]+)*\.(?:[a-z]{1,5})\b|\b\w+\(\)|`[^`]+`|\bline[s]? \d+|\b[a-z]+[A-Z]\w*\b|\b\w+_\w+\b/;
export const NEW_THING =
  /\b(new (?:project|app|application|repo\w*|service|package|library)|from scratch|scaffold\w*|set up|setup|initiali[sz]e|bootstrap)\b/i;
/** A diagnosis that needs reasoning step by step (rule 16). */
export const HARD_DIAGNOSIS =
  /\b(intermittent\w*|sometimes|occasionally|randomly|flaky|race conditions?|deadlocks?|memory leaks?|leak\w*|only (?:in|on) (?:production|prod|ci|staging)|non-?deterministic|heisenbug|hangs?|slow(?:er|s| down)?|performance|root cause)\b/i;
export const STEP_BY_STEP =
  /\bstep[- ]by[- ]step\b|\breason\w*\b|\bthink\b|\btrace\b|\bwalk (?:me )?through\b|\bhypothes\w*|\bcandidate causes?\b|\bone (?:at a time|by one)\b|\bnumbered steps\b/i;
/** A comparison (rule 17), its dimensions, and a request for a recommendation. */
export const COMPARE =
  /\b(which (?:is|one is|would be|of (?:them|these|the two) is) (?:better|best|faster|preferable)|(?:should|shall) (?:i|we) (?:use|pick|choose|go with) \S+ or\b|(?<!old[- ])(?:vs\.?(?=\s)|versus)(?![- ]new)|pros and cons|trade-?offs? (?:between|of)|(?:choose|pick|decide) between|compare (?:the )?(?:options|alternatives|approaches|libraries|frameworks|tools|databases|solutions)\b|compare (?!(?:it|them|this|that|these|those|the|old|new|before)\b)[\w.-]+ (?:and|with|to|against) [\w.-]+)/i;
export const DIMENSIONS =
  /\b(dimensions?|criteria|in terms of|performance|speed|memory|cost|price|maintainab\w*|complexity|security|scal\w*|ease of use|learning curve|ecosystem|community|compatib\w*|licen[cs]e|bundle size|latency|throughput|reliab\w*|developer experience|migration effort|support)\b/i;
export const RECOMMEND =
  /\b(recommend\w*|which (?:one )?(?:should|would) (?:i|we|you)|(?:should|shall) (?:i|we)\b|your (?:choice|pick)|pick one|verdict|suggest\w*|advise)\b/i;

/** A Markdown list item: prose, even when it ends with ";". */
export const LIST_ITEM = /^\s*(?:[-*•]|\d+[.)])\s+/;
