#!/usr/bin/env bash
# The screening floor: cairn's POST /v1/compliance/screen (100 addresses, 50
# listed, as bench/ab/run.sh sends them) against bench/screen/floor, a bare
# net/http handler that decodes the same request, looks the addresses up
# in a Go map of the same list and encodes a status per address, with no
# authentication, billing, matches or proof: how far the real path is from
# what a Go server does on this machine. The list is the synthetic
# list:ethereum of LIST random EVM addresses (1000000 by default). ROUNDS
# rounds (3 by default) alternate which of the two goes first; each cairn
# run starts a fresh server on the embedded store. wrk runs from a second
# process; each line gives requests/s, the server's CPU milliseconds per
# request and wrk's p99, then the medians and cairn's over the floor's.
# Usage, from the repository root: bash bench/screen/floor.sh [seconds] [connections]
set -euo pipefail
secs=${1:-8}
conns=${2:-32}
rounds=${ROUNDS:-3}
LIST=${LIST:-1000000}
admin=bench-admin-token-0123456789abcdef0123
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/floor" ./bench/screen/floor
. bench/sources.sh

# measure label pid lua url: one wrk run against the server pid.
measure() {
  local t0 t1 fig
  t0=$(cpu_ticks "$2")
  fig=$(wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$3" "$4" | wrk_figures)
  t1=$(cpu_ticks "$2")
  set -- "$1" $fig "$((t1 - t0))"
  printf '%-5s screen100=%s screenCpuMs=%s screenP99ms=%s\n' "$1" "$2" "$(per_request "$5" "$3")" "$4" | tee -a "$work/results"
}

run_cairn() {
  local port=18098 pid key
  "$work/cairn" serve --listen 127.0.0.1:$port --data-dir "$work/data-$1" --admin-token "$admin" \
    --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error "${srcs[@]}" 2>"$work/cairn.log" &
  pid=$!
  for _ in $(seq 200); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
  until curl -sf 127.0.0.1:$port/v1/compliance/stats | grep -q "\"totalAddresses\":$want"; do sleep 0.2; done
  key=$(bench_agent $port "$admin")
  for _ in $(seq 300); do
    [ "$(curl -s -o /dev/null -w '%{http_code}' -X POST 127.0.0.1:$port/v1/compliance/screen -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' -d "$body")" = 200 ] && break
    sleep 0.1
  done
  post_lua "$work/cairn.lua" "$key" "$body"
  measure cairn "$pid" "$work/cairn.lua" "http://127.0.0.1:$port/v1/compliance/screen"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

run_floor() {
  local port=18099 pid
  "$work/floor" -listen 127.0.0.1:$port -list "$listed" &
  pid=$!
  for _ in $(seq 300); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
  # Listed addresses answer as such, as from cairn.
  curl -sf -X POST 127.0.0.1:$port/v1/compliance/screen -d "$body" | grep -o '"status":"sanctioned"' | wc -l | xargs echo "floor: sanctioned in one batch (want 50):" >&2
  post_lua "$work/floor.lua" none "$body"
  measure floor "$pid" "$work/floor.lua" "http://127.0.0.1:$port/v1/compliance/screen"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then run_floor; run_cairn "$r"; else run_cairn "$r"; run_floor; fi
done
echo "== medians and cairn/floor"
medians "$work/results" floor cairn
