# Sourced by the bench scripts, from the repository root: helpers they share.

# synthetic_list n file: n random EVM addresses, one per line, the same n
# in every run.
synthetic_list() {
  python3 -c "
import random, sys
r = random.Random(1)
sys.stdout.write(''.join('0x%040x\\n' % r.getrandbits(160) for _ in range($1)))" > "$2"
}

# screen_body listed: a screening request of 100 addresses, the first 50
# lines of the file listed (ethereum) and 50 unlisted (polygon), spread
# over the address space as real ones are (the first 20 bytes of the
# SHA-256 of 1..50): each lies in a gap of its own, which the stored proof
# proves (addresses 0x00..01 to 0x00..32 would all share the lowest gap).
screen_body() {
  local items i
  items=$(head -50 "$1" | sed -E 's/.*/{"address":"&","chain":"ethereum"}/' | paste -sd, -)
  for i in $(seq 1 50); do items="$items,{\"address\":\"0x$(printf '%s' "$i" | sha256sum | cut -c1-40)\",\"chain\":\"polygon\"}"; done
  echo "{\"addresses\":[$items]}"
}

# bench_agent port admin: registers an agent on 127.0.0.1:port, grants its
# account ample credits with the admin token, and prints its API key.
bench_agent() {
  local reg key dev
  reg=$(curl -sf -X POST "127.0.0.1:$1/v1/auth/agent-register")
  key=$(echo "$reg" | sed -E 's/.*"apiKey":"([^"]+)".*/\1/')
  dev=$(echo "$reg" | sed -E 's/.*"developerId":"([^"]+)".*/\1/')
  curl -sf -X POST "127.0.0.1:$1/v1/admin/credits" -H "Authorization: Bearer $2" -H 'Content-Type: application/json' \
    -d "{\"developerId\":\"$dev\",\"amount\":1000000000000,\"reason\":\"bench\"}" >/dev/null
  echo "$key"
}

# post_lua file key body: a wrk script that posts body as JSON with the key.
post_lua() {
  cat > "$1" <<LUA
wrk.method = "POST"
wrk.body = '$3'
wrk.headers["Content-Type"] = "application/json"
wrk.headers["Authorization"] = "Bearer $2"
LUA
}
