#!/usr/bin/env bash
# CPU of one server on PostgreSQL and of its own PostgreSQL backends during
# closed-loop creates, then gets (bench/memory/load, 16 connections): the
# utime+stime ticks of each process (/proc/<pid>/stat) over 3 s of each
# phase, in percent of one core. Usage, from the repository root:
#   bash bench/memory/pgcpu.sh <cairn binary> [seconds per phase]
# URL (default postgres://postgres@127.0.0.1:5432/test?sslmode=disable) is
# the database, with any runtime parameter (options=-c ...); a fresh
# schema per run, dropped at the end. PORT (default 18310; PORT+1 too).
# With FREE=1, memory reads and writes are priced 0 before the closed
# loops (no charge at all).
set -euo pipefail
bin=$1
secs=${2:-5}
base='postgres://postgres@127.0.0.1:5432/test?sslmode=disable'
url=${URL:-$base}
port=${PORT:-18310}
schema="bench_pgcpu_$RANDOM$RANDOM"
dir=$(mktemp -d)
go build -o "$dir/load" ./bench/memory/load
"$bin" serve --listen "127.0.0.1:$port" --data-dir "$dir/data" --admin-token bench-admin-token-0123456789abcdef0123 \
  --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error --store "$url" --postgres-schema "$schema" \
  --pprof-listen "127.0.0.1:$((port + 1))" 2>"$dir/log" &
pid=$!
cleanup() {
  kill "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  psql -q "$base" -c "DROP SCHEMA IF EXISTS $schema CASCADE" >/dev/null 2>&1 || true
  rm -rf "$dir"
}
trap cleanup EXIT
for _ in $(seq 100); do curl -sf "127.0.0.1:$port/healthz" >/dev/null && break; sleep 0.1; done
. bench/lib.sh
key=$(bench_agent "$port" bench-admin-token-0123456789abcdef0123)
ticks() { # pid... -> their utime+stime ticks
  local t=0 p
  for p in "$@"; do [ -r "/proc/$p/stat" ] && t=$((t + $(awk '{print $14+$15}' "/proc/$p/stat"))); done
  echo "$t"
}
backends() { # the pids of the server's PostgreSQL backends
  local ports
  ports=$(ss -tnp 2>/dev/null | grep "pid=$pid," | awk '{print $4}' | grep -o ':[0-9]*$' | tr -d : | paste -sd, -)
  psql -At "$base" -c "SELECT pid FROM pg_stat_activity WHERE client_port IN ($ports)"
}
L="$dir/load -url http://127.0.0.1:$port -key $key -dur ${secs}s"
$L -op create -rate 200 -ids "$dir/ids" >/dev/null
if [ -n "${FREE:-}" ]; then
  curl -sf -X PUT "127.0.0.1:$port/v1/admin/pricing" -H "Authorization: Bearer bench-admin-token-0123456789abcdef0123" \
    -H 'Content-Type: application/json' -d '{"operationCosts":{"memory.read":0,"memory.write":0}}' >/dev/null
fi
for op in create get; do
  $L -op "$op" -rate 0 -conns 16 -ids "$dir/ids" >"$dir/out" &
  lp=$!
  sleep 1
  bk=$(backends | paste -sd' ')
  c0=$(ticks "$pid"); b0=$(ticks $bk); t0=$(date +%s%N)
  sleep 3
  c1=$(ticks "$pid"); b1=$(ticks $bk); t1=$(date +%s%N)
  wait "$lp"
  el=$(((t1 - t0) / 10000000)) # hundredths of a second, as the ticks
  echo "$op: $(grep -o 'throughput=[^ ]*' "$dir/out") cairn=$(((c1 - c0) * 100 / el))% backends($(echo $bk | wc -w))=$(((b1 - b0) * 100 / el))% of a core"
done
uptime
