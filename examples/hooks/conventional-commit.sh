#!/usr/bin/env bash
# conventional-commit.sh — a PreToolUse guard for the Bash tool: commit messages the assistant
# writes must follow Conventional Commits, with a subject of at most 50 characters.
#
# When the command runs `git commit` with a message given on the command line —
#   git commit -m "feat: add login"        git commit -am 'fix(api): handle 404'
#   git commit --message="docs: fix typo"  git commit -m "$(cat <<'EOF' … EOF)"   (heredoc)
# — the subject (first line) must read  type(optional scope)!: subject  where type is one of
# feat, fix, docs, style, refactor, perf, test, chore (the eight of the recipe library) or
# build, ci, revert, and the subject must be at most 50 characters. Otherwise the call is
# blocked (exit 2) and the model is told what to fix, so it retries with a better message.
# Git's own subjects (fixup!/squash!/amend!, Merge …, Revert "…") pass. Commits without -m
# (-F FILE, -C REV, --fixup, the editor) and messages built at run time ($VAR, $(cmd) other
# than a heredoc) are not checked.
#
# Install: copy this file to .assistant/hooks/ in your project, `chmod +x` it, and add to
# .assistant/settings.json:
#
#   { "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ {
#       "type": "command",
#       "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/conventional-commit.sh\"",
#       "timeout": 10 } ] } ] } }
#
# The assistant commits on its own only with the Bash(git:*) permission; this hook checks the
# message whatever mode it runs in.
#
# Needs: bash 3.2+ and node (every assistant install has it) to read the event JSON; no jq.
# Settings: ASSISTANT_COMMIT_TYPES (space-separated; default above), ASSISTANT_COMMIT_SUBJECT_MAX
# (default 50).
# Try it:  assistant hooks test PreToolUse --tool Bash --input '{"command":"git commit -m \"Fixed stuff\""}'

set -u

INPUT=$(cat)

# Fast path: no commit in sight, no need to start node.
case "$INPUT" in
  *commit*) ;;
  *) exit 0 ;;
esac

command -v node >/dev/null 2>&1 || { echo "conventional-commit.sh: node is needed to read the hook input" >&2; exit 1; }

# Prints "subject RS length RS" (RS = \036) for each `git commit` in the command whose message is known
# before it runs. The shell words are split the way bash would (quotes, escapes, $( ), heredocs).
subjects=$(printf '%s' "$INPUT" | node -e '
const input = JSON.parse(require("fs").readFileSync(0, "utf8"));
const cmd = String((input.tool_input && input.tool_input.command) || "");

// After "$(" at i, the index just past its ")", skipping quotes and heredoc bodies.
function skipSubst(s, i) {
  let depth = 0;
  for (let j = i + 1; j < s.length; j++) {
    const c = s[j];
    if (c === "(") depth++;
    else if (c === ")") { if (--depth === 0) return j + 1; }
    else if (c === "\x27") { const k = s.indexOf("\x27", j + 1); if (k < 0) return s.length; j = k; }
    else if (c === "<" && s[j + 1] === "<") {
      const m = /^<<-?\s*(["\x27]?)(\w+)\1/.exec(s.slice(j));
      if (!m) continue;
      const nl = s.indexOf("\n", j);
      if (nl < 0) return s.length;
      const end = new RegExp("\\n[\\t ]*" + m[2] + "[\\t ]*(?=\\n|\\)|$)").exec(s.slice(nl));
      if (!end) return s.length;
      j = nl + end.index + end[0].length - 1;
    }
  }
  return s.length;
}

// Words and operators; each word knows whether it holds run-time expansions.
function tokenize(s) {
  const out = [];
  let cur = null, dyn = false;
  const push = () => { if (cur !== null) out.push({ w: cur, dyn }); cur = null; dyn = false; };
  const subst = (i) => { const j = skipSubst(s, i); cur += s.slice(i, j); dyn = true; return j; };
  const tick = (i) => { const k = s.indexOf("`", i + 1); const j = k < 0 ? s.length : k + 1; cur += s.slice(i, j); dyn = true; return j; };
  let i = 0;
  while (i < s.length) {
    const c = s[i];
    if (c === " " || c === "\t") { push(); i++; continue; }
    if ("\n;&|()".includes(c)) { push(); out.push({ op: c }); i++; continue; }
    if (cur === null) cur = "";
    if (c === "\\") { if (s[i + 1] !== "\n") cur += s[i + 1] || ""; i += 2; continue; }
    if (c === "\x27") { const k = s.indexOf("\x27", i + 1); const e = k < 0 ? s.length : k; cur += s.slice(i + 1, e); i = e + 1; continue; }
    if (c === "$" && s[i + 1] === "(") { i = subst(i); continue; }
    if (c === "`") { i = tick(i); continue; }
    if (c === "$" && /[A-Za-z_{]/.test(s[i + 1] || "")) dyn = true;
    if (c === "\"") {
      i++;
      while (i < s.length && s[i] !== "\"") {
        if (s[i] === "\\" && "\"\\$`".includes(s[i + 1])) { cur += s[i + 1]; i += 2; }
        else if (s[i] === "\\" && s[i + 1] === "\n") i += 2;
        else if (s[i] === "$" && s[i + 1] === "(") i = subst(i);
        else if (s[i] === "`") i = tick(i);
        else { if (s[i] === "$" && /[A-Za-z_{]/.test(s[i + 1] || "")) dyn = true; cur += s[i++]; }
      }
      i++;
      continue;
    }
    cur += c; i++;
  }
  push();
  return out;
}

// The message text, or undefined when it is only known at run time.
function messageOf(t) {
  const h = /^\$\(\s*cat\s*<<-?\s*(["\x27]?)(\w+)\1[^\n]*\n([\s\S]*?)\n[\t ]*\2[\t ]*\n?\s*\)$/.exec(t.w);
  if (h) return h[3];
  return t.dyn ? undefined : t.w;
}

const WRAPPERS = new Set(["sudo", "env", "command", "builtin", "exec", "nice", "nohup", "time", "timeout"]);
const tokens = tokenize(cmd);
const commands = [[]];
for (const t of tokens) { if (t.op) commands.push([]); else commands[commands.length - 1].push(t); }

const results = [];
for (const words of commands) {
  let i = 0;
  while (i < words.length) {
    const w = words[i].w, base = w.split("/").pop();
    if (/^[A-Za-z_][A-Za-z0-9_]*=/.test(w)) { i++; continue; }
    if (WRAPPERS.has(base)) { i++; while (i < words.length && /^(-|\d)/.test(words[i].w)) i++; continue; }
    break;
  }
  if (i >= words.length || words[i].w.split("/").pop() !== "git") continue;
  i++;
  while (i < words.length && words[i].w.startsWith("-")) i += ["-C", "-c", "--git-dir", "--work-tree", "--namespace"].includes(words[i].w) ? 2 : 1;
  if (i >= words.length || words[i].w !== "commit") continue;
  const parts = [];
  let unknown = false, generated = false;
  const take = (t) => { if (!t) return; const m = messageOf(t); if (m === undefined) unknown = true; else parts.push(m); };
  for (i++; i < words.length; i++) {
    const w = words[i].w;
    if (w === "--") break;
    if (w === "--message" || w === "-m") { take(words[++i]); continue; }
    if (w.startsWith("--message=")) { take({ w: w.slice(10), dyn: words[i].dyn }); continue; }
    if (/^--(fixup|squash)(=|$)/.test(w)) { generated = true; continue; }
    if (/^--(file|reuse-message|reedit-message|template)$/.test(w)) { i++; generated = true; continue; }
    if (/^--(file|reuse-message|reedit-message|template)=/.test(w)) { generated = true; continue; }
    if (/^-[A-Za-z]/.test(w) && !w.startsWith("--")) {
      // A cluster of short options: -am, -amMSG, -sm MSG. F, C, c and t take the rest as their value.
      for (let k = 1; k < w.length; k++) {
        const o = w[k];
        if (o === "m") { if (k + 1 < w.length) take({ w: w.slice(k + 1), dyn: words[i].dyn }); else take(words[++i]); break; }
        if ("FCct".includes(o)) { generated = true; if (k + 1 === w.length) i++; break; }
      }
    }
  }
  if (unknown || generated || parts.length === 0) continue;
  const lines = parts.join("\n\n").split("\n");
  const first = lines.find((l) => l.trim() !== "");
  const subject = (first === undefined ? "" : first).replace(/\s+$/, "");
  results.push(subject, String([...subject].length));
}
process.stdout.write(results.map((r) => r.replace(/\x1e/g, " ") + "\x1e").join(""));
') || { echo "conventional-commit.sh: could not read the hook input" >&2; exit 1; }

[ -n "$subjects" ] || exit 0

TYPES=${ASSISTANT_COMMIT_TYPES:-feat fix docs style refactor perf test chore build ci revert}
MAX=${ASSISTANT_COMMIT_SUBJECT_MAX:-50}
types_alt=$(printf '%s' "$TYPES" | tr -s ' ' '|')
types_list=$(printf '%s' "$TYPES" | tr -s ' ' ',' | sed 's/,/, /g')
re_ok="^($types_alt)(\([^()]+\))?!?: [^[:space:]]"
re_git='^((fixup|squash|amend)! |Merge |Revert ")'
problems=''

# Records are separated by \036 (RS), fields alternate subject, length.
IFS=$'\036' read -r -a fields <<<"$subjects" || true
k=0
while [ $k -lt ${#fields[@]} ]; do
  subject=${fields[$k]}
  length=${fields[$((k + 1))]:-0}
  k=$((k + 2))
  [[ $subject =~ $re_git ]] && continue
  if ! [[ $subject =~ $re_ok ]]; then
    hint=''
    if [ -z "$subject" ]; then
      hint=' The message is empty.'
    elif [[ $subject =~ ^([A-Za-z]+)(\([^()]*\))?!?:[[:space:]]* ]]; then
      word=${BASH_REMATCH[1]}
      lower=$(printf '%s' "$word" | tr '[:upper:]' '[:lower:]')
      if [[ " $TYPES " == *" $lower "* ]] && [ "$word" != "$lower" ]; then
        hint=" The type must be lower case (\"$lower\", not \"$word\")."
      elif [[ " $TYPES " != *" $word "* ]]; then
        hint=" \"$word\" is not one of the allowed types."
      else
        hint=' Put exactly one space after the colon, then the subject.'
      fi
    else
      hint=' It does not start with a type.'
    fi
    problems="$problems
- \"$subject\" does not follow Conventional Commits.$hint Write type(optional scope): subject, with the type one of: $types_list — for example \"fix(auth): reject expired tokens\" (add ! before the colon for a breaking change)."
  fi
  if [ "$length" -gt "$MAX" ]; then
    problems="$problems
- The subject is $length characters long; the limit is $MAX characters. Shorten it and put the details in the body (a second -m \"…\" paragraph)."
  fi
done

if [ -n "$problems" ]; then
  printf 'Commit blocked by conventional-commit.sh:%s\nRun the commit again with a corrected message.\n' "$problems" >&2
  exit 2
fi
exit 0
