#!/usr/bin/env bash
# desk → service → receiver → desk, on one machine with a local PostgreSQL (docs/team.md).
#
#   ECONSIG_DATABASE_URL=postgres://user:password@127.0.0.1:5432/db scripts/team-demo.sh [submission.json]
#
# Three processes, as on three machines: a receiver (`econsig watch`, its own ECONSIG_HOME)
# writing deliveries to the team store; the sandbox playing the service, sending each result
# to that receiver; and a clerk's desk (another ECONSIG_HOME) whose `submit --wait` binds no
# port and learns the result from the store. Exits with submit's code (0 approved, 8 denied).
set -euo pipefail
: "${ECONSIG_DATABASE_URL:?set ECONSIG_DATABASE_URL to the postgres:// URL of a database econsig may use}"
root="$(cd "$(dirname "$0")/.." && pwd)"
file="${1:-$root/fixtures/valid/bank-and-pix.json}"
# An array, not a function: `"${econsig[@]}" ... &` makes $! node's own pid, so the cleanup
# below stops node itself (killing the subshell of a function would leave node running).
econsig=(node "$root/bin/econsig.js")
work="$(mktemp -d)"
pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null || true; done
  wait 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT

first_line() { # file → its first line, once written (10 s at most)
  for _ in $(seq 100); do
    if [ -s "$1" ] && head -1 "$1" | grep -q .; then head -1 "$1"; return 0; fi
    sleep 0.1
  done
  echo "team-demo: nothing on $1 after 10 s" >&2; cat "${1%.out}.err" >&2 || true; return 1
}

echo "1. receiver (the host behind the callback URL), home $work/receiver"
ECONSIG_HOME="$work/receiver" "${econsig[@]}" watch --port 0 --json >"$work/receiver.out" 2>"$work/receiver.err" &
pids+=($!)
webhook="$(first_line "$work/receiver.out" | sed -E 's/.*"url":"([^"]+)".*/\1/')"
echo "   listening on $webhook, writing to the team store"

echo "2. the service (econsig sandbox), sending results to the receiver"
token="sbx_team_demo_$$"
"${econsig[@]}" sandbox --port 0 --delay 1 --token "$token" --webhook-url "$webhook" >"$work/sandbox.out" 2>"$work/sandbox.err" &
pids+=($!)
base="$(first_line "$work/sandbox.out" | sed -E 's/.*listening on ([^ ]+).*/\1/')"
echo "   $base"

echo "3. a clerk's desk, home $work/desk: submit --wait (no listener; the result comes from the store)"
set +e
ECONSIG_HOME="$work/desk" ECONSIG_TOKEN="$token" ECONSIG_BASE_URL="$base" "${econsig[@]}" submit "$file" --wait --timeout 30
code=$?
set -e
echo "4. the team's history, from the desk:"
ECONSIG_HOME="$work/desk" "${econsig[@]}" history --limit 5 || true
echo "team-demo: submit --wait exited $code"
exit "$code"
