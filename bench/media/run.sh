#!/usr/bin/env bash
# Media reads: GET /v1/media/:id/stream of a 10 MiB file (whole, and a 1 KiB
# Range) against a bare Go handler (http.ServeContent over os.File,
# bench/media/bare) and nginx serving the same file from the same disk,
# measured with wrk from a second process, ROUNDS rounds in rotating order.
# Every cairn request is authenticated, charged (1 credit) and verified
# against the file's chunk digests. Needs nginx and wrk (Debian packages).
# Usage, from the repository root: bash bench/media/run.sh [seconds] [connections]
# CAIRN_FLAGS adds flags to cairn serve; PROFILE=file.pprof takes a CPU profile
# of cairn (--pprof-listen) during its first 1 KiB Range run and writes it there.
set -euo pipefail
secs=${1:-5}
conns=${2:-8}
rounds=${ROUNDS:-3}
admin=bench-admin-token-0123456789abcdef0123
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/cairn" ./cmd/cairn
go build -o "$work/bare" ./bench/media/bare
head -c $((10 << 20)) /dev/urandom > "$work/file.bin"
mkdir -p "$work/www" && cp "$work/file.bin" "$work/www/file.bin"

"$work/cairn" serve --listen 127.0.0.1:18080 --data-dir "$work/data" --admin-token "$admin" \
  --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error \
  ${PROFILE:+--pprof-listen 127.0.0.1:18083} ${CAIRN_FLAGS:-} 2>"$work/cairn.log" &
"$work/bare" -listen 127.0.0.1:18082 -file "$work/www/file.bin" &
for _ in $(seq 100); do curl -sf 127.0.0.1:18080/healthz >/dev/null && break; sleep 0.1; done

reg=$(curl -sf -X POST 127.0.0.1:18080/v1/auth/agent-register)
key=$(echo "$reg" | sed -E 's/.*"apiKey":"([^"]+)".*/\1/')
dev=$(echo "$reg" | sed -E 's/.*"developerId":"([^"]+)".*/\1/')
curl -sf -X POST 127.0.0.1:18080/v1/admin/credits -H "Authorization: Bearer $admin" \
  -H 'Content-Type: application/json' -d "{\"developerId\":\"$dev\",\"amount\":100000000,\"reason\":\"bench\"}" >/dev/null
id=$(curl -sf -X POST 127.0.0.1:18080/v1/media/upload -H "Authorization: Bearer $key" \
  -F "file=@$work/file.bin;type=application/octet-stream" | sed -E 's/.*"id":"([^"]+)".*/\1/')

cat > "$work/nginx.conf" <<NGINX
worker_processes 2;
user root;
pid $work/nginx.pid;
error_log $work/nginx-error.log;
daemon on;
events { worker_connections 1024; }
http {
  access_log off;
  sendfile on;
  server { listen 127.0.0.1:18081; root $work/www; }
}
NGINX
nginx -c "$work/nginx.conf" -p "$work"
for u in "http://127.0.0.1:18081/file.bin" "http://127.0.0.1:18082/file.bin"; do
  curl -sf -o /dev/null -w "check $u: %{http_code} %{size_download} bytes\n" "$u"
done
curl -sf -o /dev/null -w "check cairn: %{http_code} %{size_download} bytes\n" -H "Authorization: Bearer $key" \
  "http://127.0.0.1:18080/v1/media/$id/stream"

rng="Range: bytes=5000000-5001023"
measure() { # target kind
  local url hdr=()
  case $1 in
    cairn) url="http://127.0.0.1:18080/v1/media/$id/stream"; hdr=(-H "Authorization: Bearer $key") ;;
    bare) url="http://127.0.0.1:18082/file.bin" ;;
    nginx) url="http://127.0.0.1:18081/file.bin" ;;
  esac
  [ "$2" = range ] && hdr+=(-H "$rng")
  local rps prof=
  if [ -n "${PROFILE:-}" ] && [ "$1 $2" = "cairn range" ] && [ ! -s "$PROFILE" ]; then
    curl -sf -o "$PROFILE" "http://127.0.0.1:18083/debug/pprof/profile?seconds=$((secs > 1 ? secs - 1 : 1))" &
    prof=$!
  fi
  rps=$(wrk -t1 -c"$conns" -d"${secs}s" "${hdr[@]}" "$url" | awk '/Requests\/sec/ {print $2}')
  [ -n "$prof" ] && wait "$prof"
  echo "$1 $2 $rps" | tee -a "$work/results"
}
targets=(cairn bare nginx)
for r in $(seq "$rounds"); do
  for i in 0 1 2; do
    t=${targets[$(((i + r) % 3))]}
    measure "$t" whole
    measure "$t" range
  done
done
echo "== medians (requests/s)"
awk '{ v[$1, $2] = v[$1, $2] " " $3 }
  END {
    split("cairn bare nginx", ts, " ")
    for (k = 1; k <= 2; k++) {
      kind = k == 1 ? "whole" : "range"
      for (i = 1; i <= 3; i++) { n = split(v[ts[i], kind], a, " "); asort(a); m[ts[i]] = a[int((n + 1) / 2)] }
      printf "%-6s cairn %9.1f  bare Go %9.1f  nginx %9.1f  cairn/bare %.2f  cairn/nginx %.2f\n",
        kind, m["cairn"], m["bare"], m["nginx"], m["cairn"] / m["bare"], m["cairn"] / m["nginx"]
    }
  }' "$work/results"
