#!/usr/bin/env bash
# notify-chat.sh — a Notification hook: when the assistant needs you (a permission question is
# waiting, or it has waited 60 s for your input), post the message to a chat webhook.
#
# Sends  POST $ASSISTANT_CHAT_WEBHOOK_URL  with the JSON body
#   {"text": "[my-project] Assistant needs your permission to use Bash"}
# — the shape Slack incoming webhooks, Mattermost, Rocket.Chat and Google Chat accept (for
# Discord use its /slack-compatible URL: https://discord.com/api/webhooks/ID/TOKEN/slack).
# The text is the notification's "message", prefixed with the project folder's name.
# Uses curl when it is installed, else node's fetch; gives up after 10 s. A failed post, or a
# missing URL, is a warning for the user (exit 1); it never affects the session.
#
# Install: copy this file to .assistant/hooks/, `chmod +x` it, and add to
# ~/.assistant/settings.json (your own settings: the URL is a secret, keep it out of the
# project's committed files):
#
#   { "env": { "ASSISTANT_CHAT_WEBHOOK_URL": "https://hooks.slack.com/services/…" },
#     "hooks": { "Notification": [ { "hooks": [ {
#       "type": "command",
#       "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/notify-chat.sh\"",
#       "timeout": 15 } ] } ] } }
#
# (Or export ASSISTANT_CHAT_WEBHOOK_URL in your shell instead of the "env" key.)
# Notification hooks do not run in headless runs (-p): those never wait for you.
# Needs: bash, node (every assistant install has it) and optionally curl; no jq.
# Settings: ASSISTANT_HTTP_CLIENT=curl|node to force one of the two.
# Try it:  assistant hooks test Notification --input '{"message":"test","notification_type":"permission_prompt"}'

set -u

URL=${ASSISTANT_CHAT_WEBHOOK_URL:-}
if [ -z "$URL" ]; then
  echo "notify-chat.sh: ASSISTANT_CHAT_WEBHOOK_URL is not set; no chat message sent. Set it in the \"env\" of ~/.assistant/settings.json or in your shell." >&2
  exit 1
fi
command -v node >/dev/null 2>&1 || { echo "notify-chat.sh: node is needed to read the hook input" >&2; exit 1; }

PROJECT_DIR=${ASSISTANT_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-$PWD}}

# The request body, built by node so that quotes and newlines in the message are escaped.
BODY=$(node -e '
const e = JSON.parse(require("fs").readFileSync(0, "utf8"));
const project = require("path").basename(process.argv[1]);
const message = e.message || "The assistant needs your attention" + (e.notification_type ? " (" + e.notification_type + ")" : "");
process.stdout.write(JSON.stringify({ text: "[" + project + "] " + message }));
' "$PROJECT_DIR") || { echo "notify-chat.sh: could not read the hook input" >&2; exit 1; }

CLIENT=${ASSISTANT_HTTP_CLIENT:-}
if [ -z "$CLIENT" ]; then
  if command -v curl >/dev/null 2>&1; then CLIENT=curl; else CLIENT=node; fi
fi

if [ "$CLIENT" = curl ]; then
  if ! out=$(printf '%s' "$BODY" | curl -sS --fail --max-time 10 -X POST \
      -H 'Content-Type: application/json' --data-binary @- "$URL" 2>&1); then
    echo "notify-chat.sh: posting to the chat webhook failed: $out" >&2
    exit 1
  fi
else
  printf '%s' "$BODY" | node -e '
    const body = require("fs").readFileSync(0, "utf8");
    fetch(process.argv[1], { method: "POST", headers: { "content-type": "application/json" }, body, signal: AbortSignal.timeout(10000) })
      .then(async (r) => { if (!r.ok) throw new Error("HTTP " + r.status + " " + (await r.text()).slice(0, 200)); })
      .catch((err) => { console.error("notify-chat.sh: posting to the chat webhook failed: " + (err.cause ? err.cause.message : err.message)); process.exit(1); });
  ' "$URL" || exit 1
fi
exit 0
