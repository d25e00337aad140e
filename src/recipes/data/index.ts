import r01 from './recipes/01-new-project.md';
import r02 from './recipes/02-spec-plan-tasks.md';
import r03 from './recipes/03-add-module.md';
import r04 from './recipes/04-root-cause-analysis.md';
import r05 from './recipes/05-fix-and-verify.md';
import r06 from './recipes/06-debug-logging.md';
import r07 from './recipes/07-regression-test.md';
import r08 from './recipes/08-impact-assessment.md';
import r09 from './recipes/09-refactor-batch.md';
import r10 from './recipes/10-dependency-upgrade.md';
import r11 from './recipes/11-remove-duplication.md';
import r12 from './recipes/12-branch-review.md';
import r13 from './recipes/13-security-review.md';
import r14 from './recipes/14-pre-release-check.md';
import r15 from './recipes/15-api-docs.md';
import r16 from './recipes/16-update-conventions.md';
import r17 from './recipes/17-missing-tests.md';
import r18 from './recipes/18-test-first.md';
import r19 from './recipes/19-input-validation.md';
import r20 from './recipes/20-hardening-checklist.md';
import r21 from './recipes/21-explain-line-by-line.md';
import r22 from './recipes/22-commit-message.md';
import r23 from './recipes/23-architecture-review.md';
import r24 from './recipes/24-performance-analysis.md';
import r25 from './recipes/25-readme.md';
import r26 from './recipes/26-code-translation.md';
import r27 from './recipes/27-log-analysis.md';
import r28 from './recipes/28-unit-test-scaffolding.md';
import r29 from './recipes/29-regex-generation.md';
import r30 from './recipes/30-sql-optimization.md';
import r31 from './recipes/31-api-migration.md';
import r32 from './recipes/32-git-history-analysis.md';
import r33 from './recipes/33-container-config.md';
import r34 from './recipes/34-ci-cd-config.md';
import r35 from './recipes/35-tech-debt.md';
import r36 from './recipes/36-changelog.md';
import r37 from './recipes/37-dependency-audit.md';
import r38 from './recipes/38-db-migration.md';
import r39 from './recipes/39-code-smells.md';
import r40 from './recipes/40-prompt-self-optimization.md';
import t01 from './templates/01-explain.md';
import t02 from './templates/02-bugs.md';
import t03 from './templates/03-optimize.md';
import t04 from './templates/04-refactor.md';
import t05 from './templates/05-docs.md';
import t06 from './templates/06-tests.md';
import t07 from './templates/07-translate.md';
import t08 from './templates/08-security.md';
import t09 from './templates/09-config.md';
import t10 from './templates/10-readme.md';

/** The recipe and template files, in number order (src/recipes/load.ts parses them). */
export const RECIPE_FILES: Array<{ file: string; text: string }> = [
  { file: 'recipes/01-new-project.md', text: r01 },
  { file: 'recipes/02-spec-plan-tasks.md', text: r02 },
  { file: 'recipes/03-add-module.md', text: r03 },
  { file: 'recipes/04-root-cause-analysis.md', text: r04 },
  { file: 'recipes/05-fix-and-verify.md', text: r05 },
  { file: 'recipes/06-debug-logging.md', text: r06 },
  { file: 'recipes/07-regression-test.md', text: r07 },
  { file: 'recipes/08-impact-assessment.md', text: r08 },
  { file: 'recipes/09-refactor-batch.md', text: r09 },
  { file: 'recipes/10-dependency-upgrade.md', text: r10 },
  { file: 'recipes/11-remove-duplication.md', text: r11 },
  { file: 'recipes/12-branch-review.md', text: r12 },
  { file: 'recipes/13-security-review.md', text: r13 },
  { file: 'recipes/14-pre-release-check.md', text: r14 },
  { file: 'recipes/15-api-docs.md', text: r15 },
  { file: 'recipes/16-update-conventions.md', text: r16 },
  { file: 'recipes/17-missing-tests.md', text: r17 },
  { file: 'recipes/18-test-first.md', text: r18 },
  { file: 'recipes/19-input-validation.md', text: r19 },
  { file: 'recipes/20-hardening-checklist.md', text: r20 },
  { file: 'recipes/21-explain-line-by-line.md', text: r21 },
  { file: 'recipes/22-commit-message.md', text: r22 },
  { file: 'recipes/23-architecture-review.md', text: r23 },
  { file: 'recipes/24-performance-analysis.md', text: r24 },
  { file: 'recipes/25-readme.md', text: r25 },
  { file: 'recipes/26-code-translation.md', text: r26 },
  { file: 'recipes/27-log-analysis.md', text: r27 },
  { file: 'recipes/28-unit-test-scaffolding.md', text: r28 },
  { file: 'recipes/29-regex-generation.md', text: r29 },
  { file: 'recipes/30-sql-optimization.md', text: r30 },
  { file: 'recipes/31-api-migration.md', text: r31 },
  { file: 'recipes/32-git-history-analysis.md', text: r32 },
  { file: 'recipes/33-container-config.md', text: r33 },
  { file: 'recipes/34-ci-cd-config.md', text: r34 },
  { file: 'recipes/35-tech-debt.md', text: r35 },
  { file: 'recipes/36-changelog.md', text: r36 },
  { file: 'recipes/37-dependency-audit.md', text: r37 },
  { file: 'recipes/38-db-migration.md', text: r38 },
  { file: 'recipes/39-code-smells.md', text: r39 },
  { file: 'recipes/40-prompt-self-optimization.md', text: r40 },
];

export const TEMPLATE_FILES: Array<{ file: string; text: string }> = [
  { file: 'templates/01-explain.md', text: t01 },
  { file: 'templates/02-bugs.md', text: t02 },
  { file: 'templates/03-optimize.md', text: t03 },
  { file: 'templates/04-refactor.md', text: t04 },
  { file: 'templates/05-docs.md', text: t05 },
  { file: 'templates/06-tests.md', text: t06 },
  { file: 'templates/07-translate.md', text: t07 },
  { file: 'templates/08-security.md', text: t08 },
  { file: 'templates/09-config.md', text: t09 },
  { file: 'templates/10-readme.md', text: t10 },
];
