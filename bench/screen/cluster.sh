#!/usr/bin/env bash
# Screening throughput of one instance against two on one PostgreSQL schema
# (the cluster of README "Several instances"), on this machine: POST
# /v1/compliance/screen with 100 addresses (50 listed, from the real OFAC ETH
# list) per request, wrk from a second process per instance (the connections
# split between the instances), ROUNDS rounds alternating one and two
# instances, each on a fresh schema. Every request is authenticated, charged
# (one ledger entry in PostgreSQL) and its proof stored in PostgreSQL. Needs
# CAIRN_TEST_POSTGRES_URL (a local PostgreSQL) and wrk.
# Usage, from the repository root: bash bench/screen/cluster.sh [seconds] [connections]
set -euo pipefail
secs=${1:-8}
conns=${2:-16}
rounds=${ROUNDS:-3}
: "${CAIRN_TEST_POSTGRES_URL:?set CAIRN_TEST_POSTGRES_URL}"
work=$(mktemp -d)
schemas=()
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  wait 2>/dev/null || true
  for s in "${schemas[@]}"; do psql -q "$CAIRN_TEST_POSTGRES_URL" -c "DROP SCHEMA IF EXISTS $s CASCADE" >/dev/null 2>&1 || true; done
  rm -rf "$work"
}
trap cleanup EXIT
go build -o "$work/cairn" ./cmd/cairn
admin=benchbenchbenchbenchbenchbenchbench
. bench/lib.sh
listed=ingest/testdata/ofac_lists/sanctioned_addresses_ETH.txt
body=$(screen_body "$listed")

# run n: starts n instances on a fresh schema, measures, stops them.
run() {
  local n=$1 schema="bench_cluster_$RANDOM$RANDOM" pids=() ports=()
  schemas+=("$schema")
  for i in $(seq "$n"); do
    local port=$((18100 + i))
    "$work/cairn" serve --listen 127.0.0.1:$port --data-dir "$work/data-$schema-$i" --admin-token "$admin" \
      --store "$CAIRN_TEST_POSTGRES_URL" --postgres-schema "$schema" --jwt-secret "$admin$admin" \
      --deposit-mnemonic "shoot island position soft burden budget tooth cruel issue economy destroy above" \
      --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error --source "list:ETH=$listed" 2>"$work/cairn-$i.log" &
    pids+=($!)
    ports+=($port)
    # The first instance creates the schema and ingests; the next ones follow.
    for _ in $(seq 300); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
  done
  for port in "${ports[@]}"; do
    until curl -sf 127.0.0.1:$port/v1/compliance/stats | grep -q '"totalAddresses":[1-9]'; do sleep 0.2; done
  done
  local key
  key=$(bench_agent "${ports[0]}" "$admin")
  post_lua "$work/post.lua" "$key" "$body"
  local outs=()
  for port in "${ports[@]}"; do
    wrk -t1 -c$((conns / n)) -d"${secs}s" --latency -s "$work/post.lua" http://127.0.0.1:$port/v1/compliance/screen >"$work/wrk-$port.txt" &
    outs+=("$work/wrk-$port.txt")
  done
  wait $(jobs -p | grep -v -w -F "$(printf '%s\n' "${pids[@]}")") 2>/dev/null || true
  sleep 0.5
  local total p99s
  total=$(cat "${outs[@]}" | awk '/Requests\/sec/ {s += $2} END {printf "%.1f", s}')
  p99s=$(cat "${outs[@]}" | awk '/ 99%/ {printf "%s ", $2}')
  echo "instances $n: $total requests/s (p99 per instance: $p99s), non-2xx: $(cat "${outs[@]}" | awk '/Non-2xx/ {s += $NF} END {print s + 0}')"
  kill "${pids[@]}"
  wait "${pids[@]}" 2>/dev/null || true
}
for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then run 1; run 2; else run 2; run 1; fi
done
