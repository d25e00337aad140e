#!/usr/bin/env bash
# format-after-edit.sh — a PostToolUse hook for Edit and Write: formats the file the assistant
# just changed, so its edits always match the project's style.
#
# Formatter, first found wins:
#   1. $ASSISTANT_FORMATTER — any command; the file path is added as its last argument
#      (e.g. "black -q", "gofmt -w", "rustfmt", "npx --no-install prettier --write");
#   2. the project's prettier: node_modules/.bin/prettier under the project root;
#   3. a prettier on PATH.
# (2 and 3 are what `npx --no-install prettier --write FILE` would pick, without npx's start-up
# cost on every edit.) prettier runs with --ignore-unknown, so files it has no parser for are left
# alone. With no formatter at all the hook does nothing, and says so to the user once per session.
# If the formatter fails (usually a syntax error in the edited file) its message goes back to the
# model (exit 2 on PostToolUse is feedback: the edit has already happened) so it can fix the file.
#
# Install: copy this file to .assistant/hooks/ in your project, `chmod +x` it, and add to
# .assistant/settings.json:
#
#   { "hooks": { "PostToolUse": [ { "matcher": "Edit|Write", "hooks": [ {
#       "type": "command",
#       "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/format-after-edit.sh\"",
#       "timeout": 30 } ] } ] } }
#
# The file comes from $ASSISTANT_FILE_PATH (absolute), or from tool_input.file_path in the event
# JSON when the variable is not set (for example under Claude Code, which reads the same script).
# Needs: bash 3.2+; node only in that fallback. No jq.
# Try it:  assistant hooks test PostToolUse --tool Edit --input '{"file_path":"src/app.ts"}'

set -u

INPUT=$(cat)
# The call failed (e.g. a Write refused because the file was not read first): the file was not
# changed, so leave it alone. In the event JSON, a failed call's tool_response is
# {"output": "…", "isError": true}.
case "$INPUT" in *'"isError":true'*) exit 0 ;; esac
FILE=${ASSISTANT_FILE_PATH:-}
PROJECT_DIR=${ASSISTANT_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-$PWD}}

if [ -z "$FILE" ] && command -v node >/dev/null 2>&1; then
  FILE=$(printf '%s' "$INPUT" | node -e '
    const j = JSON.parse(require("fs").readFileSync(0, "utf8"));
    process.stdout.write(String((j.tool_input && j.tool_input.file_path) || ""));
  ' 2>/dev/null)
  case "$FILE" in /*|'') ;; *) FILE="$PROJECT_DIR/$FILE" ;; esac
fi
# Nothing to format: no path, or the file is gone (a failed Write, a deleted file).
[ -n "$FILE" ] && [ -f "$FILE" ] || exit 0

run() { # run COMMAND-STRING FILE — the command string may hold options; the file is passed safely.
  local out
  if out=$(bash -c "$1 \"\$1\"" format-after-edit "$2" 2>&1 </dev/null); then
    return 0
  fi
  printf 'format-after-edit.sh: the formatter (%s) failed on %s; the file is left as it was. Its output:\n%s\n' "$1" "$2" "$out" >&2
  exit 2
}

if [ -n "${ASSISTANT_FORMATTER:-}" ]; then
  run "$ASSISTANT_FORMATTER" "$FILE"
elif [ -x "$PROJECT_DIR/node_modules/.bin/prettier" ]; then
  run "\"$PROJECT_DIR/node_modules/.bin/prettier\" --write --ignore-unknown" "$FILE"
elif command -v prettier >/dev/null 2>&1; then
  run "prettier --write --ignore-unknown" "$FILE"
else
  # No formatter: a no-op. Tell the user once per session (systemMessage is shown to the user,
  # not to the model), not on every edit.
  note="${TMPDIR:-/tmp}/assistant-format-note-${ASSISTANT_SESSION_ID:-$PPID}"
  if [ ! -e "$note" ]; then
    : >"$note" 2>/dev/null
    echo '{"systemMessage":"format-after-edit.sh: no formatter found (no node_modules/.bin/prettier, no prettier on PATH, ASSISTANT_FORMATTER not set); edited files are not formatted."}'
  fi
fi
exit 0
