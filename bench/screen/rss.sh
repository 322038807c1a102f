#!/usr/bin/env bash
# The server's RSS, second by second, after its list version is served, on a
# first start and on the restart that follows (which restores the stored
# version, then ingests the sources again at once): one synthetic list of N
# random EVM addresses, as in startup.sh. Usage, from the repository root:
#   bash bench/screen/rss.sh [addresses]
set -euo pipefail
n=${1:-1000000}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; wait 2>/dev/null; rm -rf "$work"' EXIT
. bench/lib.sh
synthetic_list "$n" "$work/list.txt"
go build -o "$work/cairn" ./cmd/cairn
for phase in first restart; do
  "$work/cairn" serve --listen 127.0.0.1:18097 --data-dir "$work/data" --admin-token benchbenchbenchbenchbenchbenchbench \
    --log-level error --source "list:ethereum=$work/list.txt" 2>/dev/null &
  pid=$!
  until curl -sf 127.0.0.1:18097/v1/compliance/stats 2>/dev/null | grep -q "\"totalAddresses\":$n"; do sleep 0.05; done
  line="$phase, RSS (MB) each second from the served version:"
  for _ in $(seq 12); do line="$line $(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status)"; sleep 1; done
  echo "$line; peak $(awk '/VmHWM/{print int($2/1024)}' /proc/$pid/status) MB"
  kill $pid; wait $pid 2>/dev/null || true
done
