#!/usr/bin/env bash
# block-dangerous-bash.sh — a PreToolUse guard for the Bash tool.
#
# Blocks (exit 2, reason on standard error, which the model receives and adjusts to):
#   * recursive deletes of root-ish targets: rm -rf /, rm -rf /*, rm -rf ~, rm -rf "$HOME",
#     rm -rf *, rm -rf ., rm -rf .., a top-level directory (rm -rf /usr), the project root,
#     --no-preserve-root — whatever the flag spelling (-rf, -fr, -Rf, -r -f, --recursive --force)
#     and behind wrappers (sudo, env, nice, nohup, timeout, xargs, bash -c …);
#   * force pushes to a protected branch: git push --force / -f / --force-with-lease / +main
#     to main or master (also "git push -f" while main is checked out, and --all / --mirror);
#   * piping a download into a shell: curl … | sh, wget -qO- … | bash, sh <(curl …),
#     bash -c "$(curl …)".
# Everything else exits 0 and goes on to the normal permission check. The checks are textual
# (quotes are not fully parsed), so they err on the side of blocking; permission rules
# (`permissions.deny`) remain the first line of defence.
#
# Install: copy this file to .assistant/hooks/ in your project, `chmod +x` it, and add to
# .assistant/settings.json (or ~/.assistant/settings.json for every project):
#
#   { "hooks": { "PreToolUse": [ { "matcher": "Bash", "hooks": [ {
#       "type": "command",
#       "command": "\"$ASSISTANT_PROJECT_DIR/.assistant/hooks/block-dangerous-bash.sh\"",
#       "timeout": 10,
#       "failClosed": true } ] } ] } }
#
# "failClosed": true makes the call blocked if this guard itself crashes or times out, instead
# of letting the command through with a warning.
#
# Needs: bash 3.2+ and node (every assistant install has it) to read the event JSON; no jq.
# Settings: ASSISTANT_PROTECTED_BRANCHES (default "main master").
# Try it:  assistant hooks test PreToolUse --tool Bash --input '{"command":"rm -rf /"}'

set -u

INPUT=$(cat)

# Fast path: nothing that could match, no need to start node.
case "$INPUT" in
  *rm*|*push*|*curl*|*wget*) ;;
  *) exit 0 ;;
esac

command -v node >/dev/null 2>&1 || { echo "block-dangerous-bash.sh: node is needed to read the hook input" >&2; exit 1; }

# json FIELD.PATH — one field of the event JSON ("" when absent).
json() {
  printf '%s' "$INPUT" | node -e '
    let v = JSON.parse(require("fs").readFileSync(0, "utf8"));
    for (const k of process.argv[1].split(".")) v = v == null ? undefined : v[k];
    process.stdout.write(v == null ? "" : typeof v === "string" ? v : JSON.stringify(v));
  ' "$1"
}

CMD=$(json tool_input.command)
[ -n "$CMD" ] || exit 0

PROJECT_DIR=${ASSISTANT_PROJECT_DIR:-${CLAUDE_PROJECT_DIR:-$PWD}}
PROTECTED=${ASSISTANT_PROTECTED_BRANCHES:-main master}

block() {
  printf '%s\n' "Blocked by block-dangerous-bash.sh: $1" >&2
  exit 2
}

unquote() {
  local w=$1
  w=${w//\"/}
  w=${w//\'/}
  printf '%s' "$w"
}

is_protected() {
  local b
  for b in $PROTECTED; do [ "$1" = "$b" ] && return 0; done
  return 1
}

# --- 1. curl | sh ----------------------------------------------------------------------------
flat=$(printf '%s' "$CMD" | tr '\n' ' ')
re_pipe='(curl|wget)[^|]*\|[[:space:]]*(sudo[[:space:]]+(-[^[:space:]]+[[:space:]]+)*)?(env[[:space:]]+)?([^[:space:]]*/)?(ba|z|k|da|fi)?sh([[:space:]]|$)'
re_procsub='(ba|z|k|da)?sh[[:space:]]+<\([[:space:]]*(curl|wget)'
re_cmdsub='(ba|z|k|da)?sh[[:space:]]+-c[[:space:]]+["'"'"']?\$\([[:space:]]*(curl|wget)'
if [[ $flat =~ $re_pipe || $flat =~ $re_procsub || $flat =~ $re_cmdsub ]]; then
  block "piping a download straight into a shell runs code nobody has read. Download the script to a file first (curl -fsSLo install.sh URL), show it to the user, and run it only once they have approved it."
fi

# --- 2. per simple command: rm and git push ---------------------------------------------------
# Split at ; & | ( ) { } ` and newlines. Quoted text is not understood, which only errs towards
# blocking.
segments=$(printf '%s\n' "$CMD" | tr ';&|(){}`' '\n')

check_rm() { # words after "rm"
  local recursive=0 noroot=0 opts=1 w t
  local -a targets=()
  for w in "$@"; do
    w=$(unquote "$w")
    if [ $opts = 1 ] && [ "$w" = "--" ]; then opts=0; continue; fi
    if [ $opts = 1 ]; then
      case "$w" in
        --recursive) recursive=1; continue ;;
        --no-preserve-root) noroot=1; continue ;;
        --*) continue ;;
        -*) case "$w" in *[rR]*) recursive=1 ;; esac; continue ;;
      esac
    fi
    targets+=("$w")
  done
  [ $noroot = 1 ] && block "rm --no-preserve-root is never needed in a project. Delete specific paths inside the project instead."
  [ $recursive = 1 ] || return 0
  for t in ${targets[@]+"${targets[@]}"}; do
    local base=$t
    # Strip trailing /, /* and /. so that ~/, ~/*, /*, ./* and $HOME/ reduce to their base.
    while :; do
      case "$base" in
        */\*) base=${base%/\*} ;;
        */.) base=${base%/.} ;;
        ?*/) base=${base%/} ;;
        *) break ;;
      esac
    done
    local danger=0
    case "$base" in
      ''|/|'~'|'$HOME'|'${HOME}'|.|..|'*'|'.*'|../..|../../..) danger=1 ;;
    esac
    [[ $base =~ ^/[^/]+$ ]] && danger=1                            # a top-level directory: /usr, /etc, /home
    [ -n "${HOME:-}" ] && [ "$base" = "${HOME%/}" ] && danger=1   # the home directory, spelt out
    [ "$base" = "${PROJECT_DIR%/}" ] && danger=1                   # the whole project
    if [ $danger = 1 ]; then
      local what='a root-level, home or project directory'
      case "$base" in '*'|.|'.*') what='everything in the working directory' ;; esac
      block "deleting \"$t\" recursively would remove $what. Delete the specific files or build directories you mean (for example rm -rf ./dist), one path at a time."
    fi
  done
}

check_push() { # words after "push"
  local force=0 all=0 skip=0 remote='' w dst
  local -a refspecs=()
  for w in "$@"; do
    w=$(unquote "$w")
    if [ $skip = 1 ]; then skip=0; continue; fi
    case "$w" in
      --force|--force-with-lease|--force-with-lease=*) force=1 ;;
      --all|--mirror) all=1 ;;
      -o|--push-option|--repo|--receive-pack|--exec) skip=1 ;;
      --*) ;;
      -*) case "$w" in *f*) force=1 ;; esac ;;
      *) if [ -z "$remote" ]; then remote=$w; else refspecs+=("$w"); fi ;;
    esac
  done
  local -a targets=()
  for w in ${refspecs[@]+"${refspecs[@]}"}; do
    case "$w" in +*) force=1; w=${w#+} ;; esac
    dst=${w##*:}
    dst=${dst#refs/heads/}
    targets+=("$dst")
  done
  [ $force = 1 ] || return 0
  if [ ${#targets[@]} = 0 ] && [ $all = 0 ]; then
    # No refspec: git pushes the current branch.
    local current
    current=$(git -C "$PROJECT_DIR" symbolic-ref --short -q HEAD 2>/dev/null || true)
    [ -n "$current" ] && targets=("$current")
  fi
  local why="rewrites history that others have pulled. Push your work to a feature branch and open a pull request, or ask the user to do the force push themselves."
  [ $all = 1 ] && block "a forced push of every branch (--all/--mirror) includes the protected branches ($PROTECTED) and $why"
  for dst in ${targets[@]+"${targets[@]}"}; do
    is_protected "$dst" && block "a force push to $dst $why"
  done
  return 0
}

while IFS= read -r seg; do
  # shellcheck disable=SC2206 # word splitting is what we want; globs are not expanded by read -a
  read -r -a words <<<"$seg" || true
  [ ${#words[@]} -gt 0 ] || continue
  i=0
  n=${#words[@]}
  # Look through wrappers: VAR=value, sudo, env, nice, nohup, time, timeout, xargs, command, exec,
  # and shell -c.
  while [ $i -lt $n ]; do
    w=$(unquote "${words[$i]}")
    case "${w##*/}" in
      *=*) i=$((i + 1)) ;;
      sudo|doas|env|nice|ionice|nohup|time|timeout|xargs|stdbuf|command|builtin|exec)
        i=$((i + 1))
        while [ $i -lt $n ]; do
          w=$(unquote "${words[$i]}")
          case "$w" in -*|[0-9]*|*=*) i=$((i + 1)) ;; *) break ;; esac
        done ;;
      sh|bash|zsh|dash|ksh)
        w2=$(unquote "${words[$((i + 1))]:-}")
        case "$w2" in -*c*) i=$((i + 2)) ;; *) break ;; esac ;;
      *) break ;;
    esac
  done
  [ $i -lt $n ] || continue
  prog=$(unquote "${words[$i]}")
  prog=${prog##*/}
  prog=${prog#\\}
  rest=("${words[@]:$((i + 1))}")
  case "$prog" in
    rm) check_rm ${rest[@]+"${rest[@]}"} ;;
    git)
      # Skip git's own options (-C dir, -c key=value, --no-pager, …) to find the subcommand.
      j=0
      while [ $j -lt ${#rest[@]} ]; do
        w=$(unquote "${rest[$j]}")
        case "$w" in
          -C|-c|--git-dir|--work-tree|--namespace) j=$((j + 2)) ;;
          -*) j=$((j + 1)) ;;
          *) break ;;
        esac
      done
      if [ $j -lt ${#rest[@]} ] && [ "$(unquote "${rest[$j]}")" = push ]; then
        args=("${rest[@]:$((j + 1))}")
        check_push ${args[@]+"${args[@]}"}
      fi ;;
  esac
done <<<"$segments"

exit 0
