#!/usr/bin/env bash
# HTTP latency and throughput of POST /v1/memory and GET /v1/memory/:id,
# driven by bench/memory/load from a second process at a fixed rate (open
# loop) and then closed loop for the maximum. Usage, from the repository
# root: bash bench/memory/run.sh [rate] [seconds]
# With STORE=<postgres URL>, the server keeps its records in PostgreSQL (a
# fresh schema per run, dropped at the end) instead of the embedded store.
# With BASE=<commit>, that commit is built too (from a temporary worktree)
# and ROUNDS rounds (default 3) alternate the two builds, base first in odd
# rounds, each on a fresh data dir; every line names its build and round.
# With VERSUS=<postgres URL> instead, the rounds alternate the embedded
# store and PostgreSQL (a fresh schema each), with this build.
# With PROFILE=<file>, the first run serves --pprof-listen and a CPU profile
# of its closed-loop gets is written to <file> (go tool pprof).
# PORT (default 18090) is the server's port, PORT+1 its pprof port.
set -euo pipefail
rate=${1:-500}
port=${PORT:-18090}
secs=${2:-10}
root=$(pwd)
work=$(mktemp -d)
schemas=()
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  for s in "${schemas[@]}"; do psql -q "${STORE:-$VERSUS}" -c "DROP SCHEMA IF EXISTS $s CASCADE" >/dev/null 2>&1; done
  [ -n "${BASE:-}" ] && git -C "$root" worktree remove --force "$work/base-src" 2>/dev/null
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/head" ./cmd/cairn
go build -o "$work/load" ./bench/memory/load
builds=(head)
rounds=1
if [ -n "${VERSUS:-}" ]; then
  builds=(pebble postgres)
  rounds=${ROUNDS:-3}
elif [ -n "${BASE:-}" ]; then
  git worktree add -q --detach "$work/base-src" "$BASE"
  (cd "$work/base-src" && go build -o "$work/base" ./cmd/cairn)
  builds=(base head)
  rounds=${ROUNDS:-3}
fi

run() { # build round
  local store=() dir="$work/data-$1-$2" pid bin=head url=${STORE:-}
  case $1 in base) bin=base ;; pebble) url= ;; postgres) url=$VERSUS ;; esac
  if [ -n "$url" ]; then
    local schema="bench_memory_$RANDOM$RANDOM"
    schemas+=("$schema")
    store=(--store "$url" --postgres-schema "$schema")
  fi
  local prof=()
  [ -n "${PROFILE:-}" ] && [ ! -e "$PROFILE" ] && prof=(--pprof-listen 127.0.0.1:$((port + 1)))
  "$work/$bin" serve --listen 127.0.0.1:$port --data-dir "$dir" --admin-token bench-admin-token-0123456789abcdef0123 \
    --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error "${store[@]}" "${prof[@]}" 2>"$work/cairn-$1-$2.log" &
  pid=$!
  for _ in $(seq 100); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
  . bench/lib.sh
  local key L
  key=$(bench_agent "$port" bench-admin-token-0123456789abcdef0123)
  L="$work/load -url http://127.0.0.1:$port -key $key -dur ${secs}s"
  {
    $L -op create -rate "$rate" -ids "$dir.ids"
    $L -op get -rate "$rate" -ids "$dir.ids"
    $L -op create -rate 0 -conns 16
    if [ ${#prof[@]} -gt 0 ]; then
      curl -sf -o "$PROFILE" "127.0.0.1:$((port + 1))/debug/pprof/profile?seconds=$((secs > 1 ? secs - 1 : 1))" &
    fi
    $L -op get -rate 0 -conns 16 -ids "$dir.ids"
    wait
  } | sed "s/^/$1 round $2: /"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}
for r in $(seq "$rounds"); do
  order=("${builds[@]}")
  [ $((r % 2)) -eq 0 ] && [ ${#builds[@]} -eq 2 ] && order=("${builds[1]}" "${builds[0]}")
  for b in "${order[@]}"; do run "$b" "$r"; done
done
