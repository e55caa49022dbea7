#!/usr/bin/env bash
# Runs Lua's own test of its stand-alone interpreter (Tests/luac/main.lua, from lua/lua v5.4.6)
# against an interpreter, counting its failed checks instead of stopping at the first
# (Tests/luac/counting.lua), and compares them with the differences known for that interpreter
# (Tests/luac/differences.txt: each with its reason). Ends with `N passed, N failed`, where a known
# difference counts as passed and any other failed check, or a known one that now passes (the list
# must be kept true), as failed.
#
#     Tests/luac/run.sh lua5.4
#     Tests/luac/run.sh .build/debug/relua --trusted
#     Tests/luac/run.sh .build/debug/relua repl --trusted
#
# main.lua finds its interpreter as the lowest index of `arg` and runs it by that one word (a
# path: `env -i` runs it without PATH): the command and its words are wrapped in a script, which
# gives the interpreter its own path as argv[0] (lua.c names itself so in its messages). main.lua
# itself runs on the interpreter under test, as Lua's suite runs it.
set -uo pipefail
here="$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)"
(($# >= 1)) || { echo "usage: $0 INTERPRETER [WORDS…]" >&2; exit 2; }
command="$1"
shift
words=("$@")
label="$(basename "$command")${words[*]:+ ${words[*]}}"
name="$(basename "$command")"
if [[ "$command" == */* ]]; then command="$(cd "$(dirname "$command")" && pwd)/$name"; else command="$(command -v "$command")"; fi

work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
mkdir "$work/bin"
{
  echo '#!/bin/bash'
  printf 'exec -a "$0" %q' "$command"
  for word in "${words[@]}"; do printf ' %q' "$word"; done
  echo ' "$@"'
} >"$work/bin/$name"
chmod +x "$work/bin/$name"

echo "== Lua's main.lua against: $label"
# Its own session (setsid), so that whatever it leaves running (the Ctrl-C checks start
# interpreters in the background) is ended with it; stdin empty (relua repl reads it after a script).
cd "$work"
setsid timeout --kill-after=5 180 \
  "$work/bin/$name" "$here/counting.lua" "$work/bin/$name" "$here/main.lua" </dev/null >"$work/log" 2>&1 &
session=$!
wait "$session"
status=$?
kill -- -"$session" 2>/dev/null
cat "$work/log"

counts="$(grep -E '^main.lua: [0-9]+ passed, [0-9]+ failed' "$work/log" | tail -1)"
if [[ -z "$counts" ]]; then
  echo "main.lua did not finish (exit $status)"
  echo "0 passed, 1 failed"
  exit 1
fi
read -r checks_passed checks_failed < <(sed -E 's/^main.lua: ([0-9]+) passed, ([0-9]+) failed/\1 \2/' <<<"$counts")
failed_lines=" $(grep '^failed at main.lua lines:' "$work/log" | sed 's/^failed at main.lua lines://') "

# The known differences for this interpreter: `LABEL | LINE | reason`.
known=()
while IFS='|' read -r who line why; do
  who="$(xargs <<<"$who")"; line="$(xargs <<<"$line")"
  [[ "$who" == "$label" ]] && known+=("$line|$why")
done < <(grep -v '^#' "$here/differences.txt" | grep '|')

passed=$checks_passed
failed=0
for entry in "${known[@]}"; do
  line="${entry%%|*}"
  if [[ "$failed_lines" == *" $line "* ]]; then
    echo "known difference, main.lua:$line —${entry#*|}"
    failed_lines="${failed_lines/ $line / }"
    passed=$((passed + 1))
  else
    echo "a known difference passes now (remove it from differences.txt): main.lua:$line"
    failed=$((failed + 1))
  fi
done
for line in $failed_lines; do
  echo "FAILED: main.lua:$line"
  failed=$((failed + 1))
done
echo "$passed passed, $failed failed"
((failed == 0))
