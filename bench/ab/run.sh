#!/usr/bin/env bash
# Side-by-side throughput of two builds of cairn: BASE (a commit, built from
# a temporary worktree) and the working tree, alternating A B / B A over
# ROUNDS rounds so that drift of the machine hits both alike. Each run
# starts a fresh server on the embedded store and measures, with wrk from a
# second process:
#   - GET /v1/media/:id/stream of a 10 MiB file, whole and a 1 KiB Range;
#   - POST /v1/compliance/screen of 100 addresses (50 listed) against the
#     real OFAC per-asset lists.
# For screening it also reports the server's CPU milliseconds and the data
# dir's growth in bytes per request, and wrk's p99 latency.
# With LIST=<n>, the only source is a synthetic list:ethereum of n random
# EVM addresses (as in bench/screen/run.sh, for example LIST=1000000) and
# the 50 listed addresses of a request are taken from it. With
# PROFILE=<dir>, each build's server also serves --pprof-listen and a CPU
# profile of every screening run is kept in <dir> (<build>-<round>.prof,
# with the two binaries, for go tool pprof).
# PORT (default 18095) is the port of the server, PORT+1 its profile.
# Usage, from the repository root: BASE=<commit> bash bench/ab/run.sh [seconds] [connections]
set -euo pipefail
base=${BASE:?set BASE to the commit to compare with}
secs=${1:-5}
conns=${2:-8}
rounds=${ROUNDS:-3}
root=$(pwd)
work=$(mktemp -d)
cleanup() {
  kill $(jobs -p) 2>/dev/null || true
  git -C "$root" worktree remove --force "$work/base-src" 2>/dev/null || true
  rm -rf "$work"
}
trap cleanup EXIT
git worktree add -q --detach "$work/base-src" "$base"
(cd "$work/base-src" && go build -o "$work/base" ./cmd/cairn)
go build -o "$work/head" ./cmd/cairn
head -c $((10 << 20)) /dev/urandom > "$work/file.bin"
. bench/sources.sh
if [ -n "${PROFILE:-}" ]; then
  mkdir -p "$PROFILE"; cp "$work/base" "$work/head" "$PROFILE/"
fi
rps() { wrk -t1 -c"$conns" -d"${secs}s" "$@" | awk '/Requests\/sec/ {print $2}'; }

measure() { # label binary round
  local dir="$work/data-$1-$RANDOM" port=${PORT:-18095} pport=$((${PORT:-18095} + 1)) prof=()
  [ -n "${PROFILE:-}" ] && prof=(--pprof-listen 127.0.0.1:$pport)
  "$work/$2" serve --listen 127.0.0.1:$port --data-dir "$dir" --admin-token bench-token-0123456789abcdef0123456789 \
    --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error "${prof[@]}" "${srcs[@]}" 2>"$work/$1.log" &
  local pid=$!
  for _ in $(seq 200); do curl -sf 127.0.0.1:$port/healthz >/dev/null && break; sleep 0.1; done
  if [ "$want" -gt 0 ]; then
    until curl -sf 127.0.0.1:$port/v1/compliance/stats | grep -q "\"totalAddresses\":$want"; do sleep 0.2; done
  fi
  local key id
  key=$(bench_agent $port bench-token-0123456789abcdef0123456789)
  id=$(curl -sf -X POST 127.0.0.1:$port/v1/media/upload -H "Authorization: Bearer $key" \
    -F "file=@$work/file.bin;type=application/octet-stream" | sed -E 's/.*"id":"([^"]+)".*/\1/')
  # Wait for the first list version (screening answers 503 before).
  for _ in $(seq 300); do
    code=$(curl -s -o /dev/null -w '%{http_code}' -X POST 127.0.0.1:$port/v1/compliance/screen -H "Authorization: Bearer $key" \
      -H 'Content-Type: application/json' -d "$body")
    [ "$code" = 200 ] && break; sleep 0.1
  done
  post_lua "$work/post.lua" "$key" "$body"
  local whole range screen
  whole=$(rps -H "Authorization: Bearer $key" "http://127.0.0.1:$port/v1/media/$id/stream")
  range=$(rps -H "Authorization: Bearer $key" -H "Range: bytes=5000000-5001023" "http://127.0.0.1:$port/v1/media/$id/stream")
  local t0 d0 out n t1 d1 screen cpu disk
  local cp=
  if [ -n "${PROFILE:-}" ]; then
    curl -sf -o "$PROFILE/$1-$3.prof" "127.0.0.1:$pport/debug/pprof/profile?seconds=$((secs > 1 ? secs - 1 : 1))" & cp=$!
  fi
  t0=$(cpu_ticks "$pid"); d0=$(du -sb "$dir" | cut -f1)
  out=$(wrk -t1 -c"$conns" -d"${secs}s" --latency -s "$work/post.lua" "http://127.0.0.1:$port/v1/compliance/screen" | wrk_figures)
  t1=$(cpu_ticks "$pid"); sleep 1; d1=$(du -sb "$dir" | cut -f1)
  [ -z "$cp" ] || wait "$cp" || true
  read -r screen n p99 <<<"$out"
  # Server CPU milliseconds and data dir bytes per screening request.
  cpu=$(per_request "$((t1 - t0))" "$n")
  disk=$(awk -v d="$((d1 - d0))" -v n="$n" 'BEGIN {printf "%.0f", d / n}')
  printf '%-5s whole10MiB=%s range1KiB=%s screen100=%s screenCpuMs=%s screenBytes=%s screenP99ms=%s\n' \
    "$1" "$whole" "$range" "$screen" "$cpu" "$disk" "$p99" | tee -a "$work/results"
  kill "$pid"; wait "$pid" 2>/dev/null || true
}

for r in $(seq "$rounds"); do
  if [ $((r % 2)) = 1 ]; then measure base base "$r"; measure head head "$r"; else measure head head "$r"; measure base base "$r"; fi
done
echo "== medians (requests/s) and head/base"
medians "$work/results" base head
