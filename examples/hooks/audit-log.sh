#!/usr/bin/env bash
# audit-log.sh — an audit trail of every tool call: appends one JSON line per hook event to
# .assistant/audit.log in the project (or to $ASSISTANT_AUDIT_LOG).
#
# Installed on PreToolUse it records each call the model asks for, including calls another
# PreToolUse hook then blocks (calls a deny rule or Plan Mode refuses never reach hooks); on
# PostToolUse each call that ran, with its duration. Each line:
#   {"time":"2026-01-31T12:00:00.000Z","event":"PreToolUse","session":"…","tool":"Bash",
#    "tool_use_id":"toolu_…","input":"npm test"}
# "input" is a one-line summary: the command for Bash, the path for file tools, the pattern for
# Grep/Glob, else the input JSON cut to 300 characters. Never blocks: any failure is reported to
# the user as a warning (exit 1) and the call goes on.
#
# Install: copy this file to .assistant/hooks/ in your project, `chmod +x` it, and add to
# .assistant/settings.json (no "matcher": every tool):
#
#   { "hooks": {
#       "PreToolUse":  [ { "hooks": [ { "type": "command",
#           "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/audit-log.sh\"" } ] } ],
#       "PostToolUse": [ { "hooks": [ { "type": "command",
#           "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/audit-log.sh\"" } ] } ] } }
#
# and add .assistant/audit.log to .gitignore. Read it with e.g.
#   node -e 'for (const l of require("fs").readFileSync(".assistant/audit.log","utf8").trim().split("\n")) { const r = JSON.parse(l); console.log(r.time, r.event, r.tool, r.input) }'
#
# Needs: bash and node (every assistant install has it); no jq. Each line is written with one
# append, so parallel tool calls do not interleave their lines.

set -u
command -v node >/dev/null 2>&1 || { echo "audit-log.sh: node is needed to read the hook input" >&2; exit 1; }

PROJECT_DIR=${ASSISTANT_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-$PWD}}
LOG=${ASSISTANT_AUDIT_LOG:-$PROJECT_DIR/.assistant/audit.log}

exec node -e '
const fs = require("fs");
const path = require("path");
const log = process.argv[1];
const e = JSON.parse(fs.readFileSync(0, "utf8"));
const input = e.tool_input || {};
const cut = (s, n = 300) => (s.length > n ? s.slice(0, n) + "…" : s);
const oneLine = (s) => String(s).replace(/\s+/g, " ").trim();
let summary;
if (typeof input.command === "string") summary = input.command;
else if (typeof input.file_path === "string") summary = input.file_path;
else if (typeof input.pattern === "string") summary = input.pattern + (input.path ? " in " + input.path : "");
else if (typeof input.path === "string") summary = input.path;
else summary = JSON.stringify(input);
const record = {
  time: new Date().toISOString(),
  event: e.hook_event_name || process.env.ASSISTANT_HOOK_EVENT || "",
  session: e.session_id || process.env.ASSISTANT_SESSION_ID || "",
  tool: e.tool_name || process.env.ASSISTANT_TOOL_NAME || "",
  tool_use_id: e.tool_use_id || "",
  input: cut(oneLine(summary)),
};
if (typeof e.duration_ms === "number") record.duration_ms = e.duration_ms;
if (e.tool_response && e.tool_response.interrupted === true) record.interrupted = true;
fs.mkdirSync(path.dirname(log), { recursive: true });
fs.appendFileSync(log, JSON.stringify(record) + "\n");
' "$LOG"
