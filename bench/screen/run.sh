#!/usr/bin/env bash
# HTTP screening throughput: POST /v1/compliance/screen with 100 addresses
# per request (half listed) against cairn serve with the real OFAC per-asset
# lists, measured with wrk from a second process. Every request goes through
# authentication, billing (90 billable addresses, one ledger entry) and the
# durable proof write. Usage, from the repository root:
#   bash bench/screen/run.sh [seconds] [connections]
# With LIST=<n>, the only source is a synthetic list:ethereum of n random
# EVM addresses (for example LIST=1000000) instead of the OFAC lists.
# Then, with bench/memory/load at fixed rates (RATES="300 500" by default;
# RATES="" for none),
# p50/p99 at each stated rate. With PID_OUT=<file>, the server's pid is
# written there (for RSS and CPU readings from another shell). CAIRN_FLAGS
# adds flags to cairn serve (for example --pprof-listen 127.0.0.1:18091, then
# PROFILE=<file> writes a CPU profile of the server over the wrk run).
# After the wrk run, the p50/p90/p99 inside the server, from /metrics: the
# screening route's latency and the waits of the store's synced commits.
# PORT (default 18090) is the server's port.
set -euo pipefail
port=${PORT:-18090}
secs=${1:-10}
conns=${2:-8}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
go build -o "$work/cairn" ./cmd/cairn
admin=benchbenchbenchbenchbenchbenchbench
. bench/sources.sh
"$work/cairn" serve --listen 127.0.0.1:$port --data-dir "$work/data" --admin-token "$admin" \
  --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error "${srcs[@]}" ${CAIRN_FLAGS:-} 2>"$work/cairn.log" &
[ -n "${PID_OUT:-}" ] && echo $! > "$PID_OUT"
for _ in $(seq 100); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
if [ "$want" -gt 0 ]; then
  until curl -sf 127.0.0.1:$port/v1/compliance/stats | grep -q "\"totalAddresses\":$want"; do sleep 0.2; done
fi
key=$(bench_agent $port "$admin")
post_lua "$work/post.lua" "$key" "$body"
curl -sf -X POST 127.0.0.1:$port/v1/compliance/screen -H "Authorization: Bearer $key" -H 'Content-Type: application/json' -d "$body" \
  | grep -o '"status":"sanctioned"' | wc -l | xargs echo "sanctioned in one batch (want 50):"
if [ -n "${PROFILE:-}" ]; then
  pp=$(echo "${CAIRN_FLAGS:-}" | sed -nE 's/.*--pprof-listen[ =]([^ ]+).*/\1/p')
  curl -sf -o "$PROFILE" "http://$pp/debug/pprof/profile?seconds=$((secs - 2))" &
fi
scrape $port "$admin" "$work/m0"
wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/post.lua" http://127.0.0.1:$port/v1/compliance/screen \
  | grep -E 'Requests/sec|50%|99%|Non-2xx'
# Inside the server over the wrk run: the screening requests' latency, and
# the waits of the store's synced commits (a screening's proof write is one).
scrape $port "$admin" "$work/m1"
hist_quantiles "$work/m0" "$work/m1" cairn_http_request_duration_seconds 'route="/v1/compliance/screen"'
hist_quantiles "$work/m0" "$work/m1" cairn_store_sync_wait_seconds
# Latency at stated rates (open loop, from a second process): requests/s x 100 addresses.
go build -o "$work/load" ./bench/memory/load
echo "$body" > "$work/body.json"
for rate in ${RATES-300 500}; do
  "$work/load" -url http://127.0.0.1:$port -key "$key" -op post -path /v1/compliance/screen -body "$work/body.json" \
    -rate "$rate" -dur "${secs}s"
done
