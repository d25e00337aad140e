import { decide } from '../../src/permissions/decide.ts';
import { noLookup } from '../../src/permissions/look.ts';
import type { PermissionMode } from '../../src/permissions/modes.ts';
import { buildRules, type RuleSet } from '../../src/permissions/rules.ts';
import { splitCommand } from '../../src/permissions/shell/parser.ts';

/**
 * Ordinary developer commands and the contexts they are decided in: the false-positive table.
 * Their decisions were recorded before the hardening of SPEC §11.16 (fixtures/ordinary-decisions.json)
 * and must not change.
 */

export const ORDINARY: string[] = [
  'npm test', 'npm run build', 'npm run test -- --watch', 'npm install', 'npm ci', 'npm install --save-dev typescript', 'npx tsc --noEmit', 'npx prettier --check .',
  'npx eslint src --fix', 'npx jest src/a.test.ts', 'node scripts/build.mjs', 'yarn test', 'pnpm install', 'make', 'make test', 'cargo build', 'cargo test',
  'go test ./...', 'go build ./cmd/app', 'pytest -q', 'python3 -m pytest tests', 'python3 manage.py migrate', 'pip install -r requirements.txt',
  'git status', 'git diff', 'git diff --stat', 'git log --oneline -10', 'git show HEAD', 'git branch', 'git branch -a', 'git add .', 'git add -A',
  'git commit -m "fix: a bug"', 'git commit -m "$(cat <<\'EOF\'\nfeat: x\n\nCo-Authored-By: A <a@b>\nEOF\n)"', 'git push', 'git push origin main',
  'git pull --rebase', 'git checkout -b feature', 'git switch main', 'git stash', 'git stash pop', 'git rebase -i HEAD~3', 'git fetch origin',
  'git log --format=%H -1', 'git rev-parse --show-toplevel', 'git blame src/a.ts', 'git restore src/a.ts', 'git reset --hard HEAD', 'git merge main',
  'gh pr create --title x --body y', 'gh pr view', 'ls', 'ls -la', 'ls src', 'pwd', 'cat package.json', 'cat package.json | jq .', 'jq .scripts package.json',
  'head -20 README.md', 'tail -n 50 log.txt', 'wc -l src/*.ts', 'grep -rn foo src', 'grep -rn "TODO" --include=*.ts .', 'rg foo', 'rg -n "export function" src',
  'find . -name "*.ts" -not -path "./node_modules/*"', 'find src -type f | wc -l', 'tree -L 2', 'du -sh node_modules', 'stat package.json', 'file a.png',
  'which node', 'echo hello', 'echo $PATH', 'echo "$HOME"', 'for f in *.ts; do wc -l "$f"; done', '[ -d node_modules ] || npm install',
  'test -f package.json && npm test', '[[ -n "$CI" ]] && npm test', 'mkdir -p build', 'mkdir -p src/components', 'touch src/new.ts', 'rm -rf build',
  'rm -rf node_modules', 'rm src/old.ts', 'mv src/a.ts src/b.ts', 'cp src/a.ts src/b.ts', 'cp -r templates out', 'ln -s ../shared lib/shared',
  'chmod +x scripts/run.sh', './scripts/run.sh', 'bash scripts/setup.sh', 'sh -c "npm test"', 'cd src && ls', 'cd packages/app && npm test',
  'sed -n 1,20p src/a.ts', "sed -i 's/foo/bar/g' src/a.ts", "awk '{print $1}' data.txt", 'sort data.txt | uniq -c', 'cut -d, -f1 data.csv',
  'diff a.txt b.txt', 'curl -s https://example.com', 'curl -o out.json https://example.com/x.json', 'docker build -t app .', 'docker compose up -d',
  'tar czf dist.tgz dist', 'tar xzf archive.tgz', 'unzip a.zip', 'echo x > out.txt', 'echo x >> log.txt', 'npm test 2>&1 | tail -20',
  'npm run lint > lint.txt 2>&1', 'timeout 60 npm test', 'time npm run build', 'NODE_ENV=test npm test', 'env CI=1 npm test', 'xargs -n1 echo < list.txt',
  'ps aux | grep node', 'kill 1234', 'lsof -i :3000', 'date', 'sleep 1', 'true', 'export FOO=bar && npm test', 'source .venv/bin/activate',
  'python3 -c "print(1)"', 'node -e "console.log(1)"', 'perl -ne "print if /x/" a.txt', 'while read l; do echo "$l"; done < README.md',
  'count=$(wc -l < a.txt); echo $count', 'if [ -f .env.example ]; then cp .env.example .env; fi', 'cat .env', 'cat .env.example',
  'git diff --name-only | xargs npx prettier --check', 'find . -name "*.pyc" -delete', 'for i in 1 2 3; do echo $i; done', 'echo $((1 + 2))',
  'n=0; while [ $n -lt 3 ]; do n=$((n+1)); done', 'printf "%s\\n" a b', 'ls -1 | head -5', 'basename $(pwd)', 'dirname src/a.ts', 'realpath .',
  'cat src/a.ts | grep -n foo', 'less README.md', 'vim src/a.ts', 'code .', 'open index.html', 'tsc -p .', 'eslint .', 'prettier --write src',
];

type Ctx = { name: string; mode: PermissionMode; allow: string[]; deny: string[]; ask?: string[] };
export const CONTEXTS: Ctx[] = [
  { name: 'normal', mode: 'normal', allow: [], deny: [] },
  { name: 'auto-accept', mode: 'auto-accept', allow: [], deny: [] },
  { name: 'plan', mode: 'plan', allow: [], deny: [] },
  { name: 'bypass', mode: 'bypass', allow: [], deny: [] },
  { name: 'normal+rules', mode: 'normal', allow: ['Bash(npm:*)', 'Bash(git:*)', 'Bash(npx:*)', 'Bash(node:*)', 'Bash(cd:*)', 'Bash(mkdir:*)', 'Bash(sed:*)', 'Bash(cp:*)', 'Bash(mv:*)'], deny: ['Read(.env)', 'Bash(rm:*)', 'Edit(secrets/**)'] },
  { name: 'bypass+deny', mode: 'bypass', allow: [], deny: ['Read(.env)', 'Bash(curl:*)', 'Edit(secrets/**)'] },
  { name: 'allow-bash', mode: 'normal', allow: ['Bash'], deny: ['Read(.env)'] },
  { name: 'auto+narrow', mode: 'auto-accept', allow: ['Bash(npm test)', 'Bash(echo:*)', 'Bash(touch:*)'], deny: [] },
];

function rules(c: Ctx): RuleSet {
  return buildRules([{ kind: 'allow', rules: c.allow, source: 'test' }, { kind: 'deny', rules: c.deny, source: 'test' }, { kind: 'ask', rules: c.ask ?? [], source: 'test' }]).rules;
}

/** `{ context: { command: behavior } }`: every ordinary command decided in every context. */
export function ordinaryDecisions(): Record<string, Record<string, string>> {
  const out: Record<string, Record<string, string>> = {};
  for (const c of CONTEXTS) {
    const r = rules(c);
    out[c.name] = {};
    for (const command of ORDINARY) {
      out[c.name][command] = decide('Bash', { command }, { mode: c.mode, projectRoot: '/proj', additionalDirs: [], home: '/home/u', rules: r, shell: splitCommand(command), look: noLookup }).behavior;
    }
  }
  return out;
}
