#!/usr/bin/env bash
# stop-summary.sh — a Stop hook: each time the assistant finishes answering, add a section to
# the session's report, .assistant/reports/<session id>.md (or under $ASSISTANT_REPORT_DIR):
# the time, the session id, the assistant's last message, and — in a git repository — the files
# changed in the working tree (`git status --porcelain`).
#
# It never blocks (exit 0; a report it cannot write is a warning, exit 1): it cannot keep the
# assistant going, so it cannot loop. When "stop_hook_active" is true (the assistant is finishing
# work another Stop hook asked for) the section says so instead of looking like a new answer.
# It is quick: one node call and one `git status` that takes no lock (--no-optional-locks), so
# it never disturbs a git command the assistant runs next.
#
# Install: copy this file to .assistant/hooks/ in your project, `chmod +x` it, and add to
# .assistant/settings.json:
#
#   { "hooks": { "Stop": [ { "hooks": [ {
#       "type": "command",
#       "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/stop-summary.sh\"",
#       "timeout": 10 } ] } ] } }
#
# and add .assistant/reports/ to .gitignore.
# Needs: bash, node (every assistant install has it), git if you want the file list; no jq.
# Try it:  assistant hooks test Stop --input '{"last_assistant_message":"Done."}'

set -u
command -v node >/dev/null 2>&1 || { echo "stop-summary.sh: node is needed to read the hook input" >&2; exit 1; }

PROJECT_DIR=${ASSISTANT_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-$PWD}}
REPORT_DIR=${ASSISTANT_REPORT_DIR:-$PROJECT_DIR/.assistant/reports}

CHANGES=''
if command -v git >/dev/null 2>&1 && git -C "$PROJECT_DIR" rev-parse --is-inside-work-tree >/dev/null 2>&1; then
  CHANGES=$(git -C "$PROJECT_DIR" --no-optional-locks status --porcelain 2>/dev/null | head -n 200)
  [ -n "$CHANGES" ] || CHANGES='(none)'
fi

# node writes the report; the git output comes in an environment variable.
STOP_SUMMARY_CHANGES=$CHANGES exec node -e '
const fs = require("fs");
const path = require("path");
const dir = process.argv[1];
const e = JSON.parse(fs.readFileSync(0, "utf8"));
const session = String(e.session_id || process.env.ASSISTANT_SESSION_ID || "unknown-session").replace(/[^A-Za-z0-9._-]/g, "_");
const file = path.join(dir, session + ".md");
const now = new Date().toISOString();
const last = String(e.last_assistant_message || "").trim() || "(no text)";
const changes = process.env.STOP_SUMMARY_CHANGES;
let md = "";
if (!fs.existsSync(file)) md += "# Session " + session + "\n\nProject: " + (e.cwd || process.env.ASSISTANT_PROJECT_DIR || "") + "\n";
md += "\n## " + now + (e.stop_hook_active ? " (continued after a Stop hook asked for more)" : "") + "\n\n";
md += "Session: " + session + "\n\n";
md += "### Last assistant message\n\n" + last + "\n";
if (changes) md += "\n### Files changed (git status --porcelain)\n\n```\n" + changes + "\n```\n";
fs.mkdirSync(dir, { recursive: true });
fs.appendFileSync(file, md);
' "$REPORT_DIR"
