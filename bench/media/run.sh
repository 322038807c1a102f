#!/usr/bin/env bash
# Streaming throughput of GET /v1/media/:id/stream against nginx serving the
# same 10 MB file from the same disk, both measured with wrk from a second
# process. Needs nginx and wrk (Debian packages). Usage, from the repository
# root: bash bench/media/run.sh [seconds] [connections]
set -euo pipefail
secs=${1:-10}
conns=${2:-8}
work=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; [ -f "$work/nginx.pid" ] && kill "$(cat "$work/nginx.pid")" 2>/dev/null; rm -rf "$work"' EXIT

go build -o "$work/cairn" ./cmd/cairn
head -c $((10 << 20)) /dev/urandom > "$work/file.bin"
mkdir -p "$work/www" && cp "$work/file.bin" "$work/www/file.bin"

"$work/cairn" serve --listen 127.0.0.1:18080 --data-dir "$work/data" --admin-token bench \
  --rate-limit-per-key 0 --write-limit-per-agent 0 --log-level error 2>"$work/cairn.log" &
for _ in $(seq 50); do curl -sf 127.0.0.1:18080/healthz >/dev/null && break; sleep 0.1; done

reg=$(curl -sf -X POST 127.0.0.1:18080/v1/auth/agent-register)
key=$(echo "$reg" | sed -E 's/.*"apiKey":"([^"]+)".*/\1/')
dev=$(echo "$reg" | sed -E 's/.*"developerId":"([^"]+)".*/\1/')
curl -sf -X POST 127.0.0.1:18080/v1/admin/credits -H 'Authorization: Bearer bench' \
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
curl -sf -o /dev/null -w "nginx check: %{http_code} %{size_download} bytes\n" http://127.0.0.1:18081/file.bin
sleep 0.5

run() { # name url [header]
  echo "== $1"
  if [ -n "${3:-}" ]; then
    wrk -t1 -c"$conns" -d"${secs}s" --latency -H "$3" ${4:+-H "$4"} "$2" | grep -E 'Requests/sec|Transfer/sec|99%|50%'
  else
    wrk -t1 -c"$conns" -d"${secs}s" --latency ${4:+-H "$4"} "$2" | grep -E 'Requests/sec|Transfer/sec|99%|50%'
  fi
}
auth="Authorization: Bearer $key"
run "cairn 10 MB whole file" "http://127.0.0.1:18080/v1/media/$id/stream" "$auth"
run "nginx 10 MB whole file" "http://127.0.0.1:18081/file.bin"
run "cairn 1 KiB range" "http://127.0.0.1:18080/v1/media/$id/stream" "$auth" "Range: bytes=5000000-5001023"
if [ "${CAIRN_BENCH_FREE_STREAM:-}" = 1 ]; then
  curl -sf -X PUT 127.0.0.1:18080/v1/admin/pricing -H "Authorization: Bearer bench" -H "Content-Type: application/json" -d "{\"operationCosts\":{\"media.stream\":0}}" >/dev/null
  run "cairn 1 KiB range, media.stream priced 0 (no ledger write)" "http://127.0.0.1:18080/v1/media/$id/stream" "$auth" "Range: bytes=5000000-5001023"
fi
run "nginx 1 KiB range" "http://127.0.0.1:18081/file.bin" "Range: bytes=5000000-5001023"
