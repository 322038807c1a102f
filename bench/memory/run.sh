#!/usr/bin/env bash
# HTTP latency and throughput of POST /v1/memory and GET /v1/memory/:id,
# driven by bench/memory/load from a second process at a fixed rate (open
# loop) and then closed loop for the maximum. Usage, from the repository
# root: bash bench/memory/run.sh [rate] [seconds]
# With STORE=<postgres URL>, the server keeps its records in PostgreSQL (a
# fresh schema, dropped at the end) instead of the embedded store.
set -euo pipefail
rate=${1:-500}
secs=${2:-10}
work=$(mktemp -d)
store=()
schema=""
if [ -n "${STORE:-}" ]; then
  schema="bench_memory_$RANDOM$RANDOM"
  store=(--store "$STORE" --postgres-schema "$schema")
fi
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  [ -n "$schema" ] && psql -q "$STORE" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/load" ./bench/memory/load
"$work/cairn" serve --listen 127.0.0.1:18090 --data-dir "$work/data" --admin-token bench-admin-token-0123456789abcdef0123 \
  --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error "${store[@]}" 2>"$work/cairn.log" &
for _ in $(seq 100); do curl -sf 127.0.0.1:18090/healthz >/dev/null && break; sleep 0.1; done
reg=$(curl -sf -X POST 127.0.0.1:18090/v1/auth/agent-register)
key=$(echo "$reg" | sed -E 's/.*"apiKey":"([^"]+)".*/\1/')
dev=$(echo "$reg" | sed -E 's/.*"developerId":"([^"]+)".*/\1/')
curl -sf -X POST 127.0.0.1:18090/v1/admin/credits -H 'Authorization: Bearer bench-admin-token-0123456789abcdef0123' \
  -H 'Content-Type: application/json' -d "{\"developerId\":\"$dev\",\"amount\":100000000,\"reason\":\"bench\"}" >/dev/null
L="$work/load -url http://127.0.0.1:18090 -key $key -dur ${secs}s"
$L -op create -rate "$rate" -ids "$work/ids.txt"
$L -op get -rate "$rate" -ids "$work/ids.txt"
$L -op create -rate 0 -conns 16
$L -op get -rate 0 -conns 16 -ids "$work/ids.txt"
