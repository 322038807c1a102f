#!/usr/bin/env bash
# The server's RSS under screening load against a synthetic list: runs
# bench/screen/run.sh (LIST addresses, default 1,000,000; wrk for SECS
# seconds, default 30, at CONNS connections, default 32; no open-loop
# rates) and reads the server's VmRSS every second: before the load, the
# highest during it, and after it. With BASE=<git revision>, that revision
# runs too, alternating, ROUNDS times (default 1). Usage, from the
# repository root: bash bench/screen/rss-load.sh
set -euo pipefail
list=${LIST:-1000000}
secs=${SECS:-30}
conns=${CONNS:-32}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null; [ -n "${BASE:-}" ] && git worktree remove --force "$work/base" 2>/dev/null; rm -rf "$work"' EXIT
dirs=("$PWD")
names=(head)
if [ -n "${BASE:-}" ]; then
  git worktree add -q --detach "$work/base" "$BASE"
  dirs=("$work/base" "$PWD")
  names=(base head)
fi
for round in $(seq "${ROUNDS:-1}"); do
  for k in "${!dirs[@]}"; do
    rm -f "$work/pid"
    (cd "${dirs[$k]}" && LIST=$list RATES="" PID_OUT="$work/pid" bash "$OLDPWD/bench/screen/run.sh" "$secs" "$conns") > "$work/out" 2>&1 &
    run=$!
    until [ -s "$work/pid" ]; do sleep 0.2; done
    pid=$(cat "$work/pid")
    # Served and idle: the wrk run has not started while the agent is set up.
    until grep -q "sanctioned in one batch" "$work/out" 2>/dev/null; do sleep 0.2; done
    before=$(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status)
    peak=0; last=0
    while kill -0 $pid 2>/dev/null && ! grep -q "Requests/sec" "$work/out"; do
      last=$(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status 2>/dev/null || echo 0)
      [ "$last" -gt "$peak" ] && peak=$last
      sleep 1
    done
    after=$(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status 2>/dev/null || echo "$last")
    wait $run || true
    echo "round $round ${names[$k]}: RSS before load ${before} MB, highest during ${peak} MB, after ${after} MB; $(grep -E 'Requests/sec' "$work/out" | tr -s ' '), p99 $(grep -E '^ +99%' "$work/out" | tr -s ' ' | cut -d' ' -f3)"
  done
done
