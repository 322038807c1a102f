#!/usr/bin/env bash
# Time from start to a served list version with one synthetic list of N
# random EVM addresses (list:ethereum, from a local file), on a fresh data
# dir: fetch, snapshot, parse, store the version, build the index and both
# trees, then the restart on the same data dir (the stored version
# restored). Also prints the server's RSS then (VmRSS), its peak (VmHWM) and
# the size of the store, and the CPU time the server used and the time its
# threads waited for a core until then. With BASE=<git revision>, that revision is built
# too and the two are run alternately. Usage, from the repository root:
#   bash bench/screen/startup.sh [addresses] [runs]
set -euo pipefail
n=${1:-1000000}
runs=${2:-3}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -n "${BASE:-}" ] && git worktree remove --force "$work/base" 2>/dev/null; rm -rf "$work"' EXIT
. bench/lib.sh
synthetic_list "$n" "$work/list.txt"
go build -o "$work/cairn-head" ./cmd/cairn
bins=(head)
if [ -n "${BASE:-}" ]; then
  git worktree add -q --detach "$work/base" "$BASE"
  (cd "$work/base" && go build -o "$work/cairn-base" ./cmd/cairn)
  bins=(base head)
fi
port=18097
for run in $(seq "$runs"); do
  for b in "${bins[@]}"; do
    rm -rf "$work/data"
    # First start on a fresh data dir (ingest), then a restart on the same
    # one (the stored version restored, the source not yet fetched again).
    for phase in first restart; do
      start=$(date +%s%N)
      "$work/cairn-$b" serve --listen 127.0.0.1:$port --data-dir "$work/data" --admin-token benchbenchbenchbenchbenchbenchbench \
        --log-level error --source "list:ethereum=$work/list.txt" 2>"$work/$b.log" &
      pid=$!
      until curl -sf 127.0.0.1:$port/v1/compliance/stats 2>/dev/null | grep -q "\"totalAddresses\":$n"; do sleep 0.05; done
      ready=$(( ($(date +%s%N) - start) / 1000000 ))
      rss=$(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status)
      hwm=$(awk '/VmHWM/{print int($2/1024)}' /proc/$pid/status)
      # CPU time of all the server's threads, and their time spent runnable
      # but waiting for a core (other work on the machine shows here).
      read -r oncpu waited < <(cat /proc/$pid/task/*/schedstat | awk '{r += $1; w += $2} END {printf "%d %d\n", r / 1e6, w / 1e6}')
      # The build's garbage is returned to the system in the background
      # once the version is served: the RSS two seconds later is the one
      # the served version keeps.
      sleep 2
      settled=$(awk '/VmRSS/{print int($2/1024)}' /proc/$pid/status)
      kill $pid; wait $pid 2>/dev/null || true
      echo "run $run $b $phase: $n addresses ready in ${ready} ms, CPU ${oncpu} ms, waited for a core ${waited} ms, RSS ${rss} MB (2 s later ${settled} MB), peak ${hwm} MB, store $(du -sm "$work/data/store" | cut -f1) MB"
    done
  done
done
