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

# cpu_ticks pid: the user+system CPU time of a process, in clock ticks.
cpu_ticks() { awk '{print $14 + $15}' "/proc/$1/stat"; }

# wrk_figures: reads the output of wrk --latency and prints its requests/s,
# its request count and its p99 in milliseconds.
wrk_figures() {
  awk '/Requests\/sec/ { rps = $2 } /requests in/ { n = $1 }
    $1 == "99%" { v = $2 + 0; if ($2 ~ /us$/) v /= 1000; else if ($2 ~ /[0-9]s$/) v *= 1000; p99 = v }
    END { print rps, n, p99 }'
}

# per_request ticks n: CPU milliseconds per request of ticks clock ticks
# over n requests.
per_request() { awk -v t="$1" -v n="$2" -v hz="$(getconf CLK_TCK)" 'BEGIN {printf "%.3f", t * 1000 / hz / n}'; }

# medians file a b: the median of each figure of the lines "label k=v ..."
# of file for labels a and b, and b's over a's.
medians() {
  awk -v a="$2" -v b="$3" '{ for (i = 2; i <= NF; i++) { split($i, kv, "="); v[$1, kv[1]] = v[$1, kv[1]] " " kv[2]; ks[kv[1]] = 1 } }
    END {
      for (k in ks) {
        na = split(v[a, k], x, " "); nb = split(v[b, k], y, " ")
        if (na == 0 || nb == 0) continue
        asort(x); asort(y); ma = x[int((na + 1) / 2)]; mb = y[int((nb + 1) / 2)]
        printf "%-12s %s %10.3f  %s %10.3f  %s/%s %.2f\n", k, a, ma, b, mb, b, a, (ma == 0 ? 0 : mb / ma)
      }
    }' "$1"
}

# scrape port token file: the server's /metrics, read with the admin token,
# into file.
scrape() { curl -sf -H "Authorization: Bearer $2" "127.0.0.1:$1/metrics" >"$3"; }

# hist_quantiles before after name [selector]: p50, p90 and p99 of the
# observations a histogram of /metrics (name, summed over the series whose
# lines hold selector: every status of a route) made between two scrapes,
# each as the upper bound of the bucket it falls in.
hist_quantiles() {
  awk -v name="$3" -v sel="${4:-}" '
    FNR == 1 { f++ }
    index($0, name "_bucket{") == 1 && index($0, sel) > 0 {
      le = $0; sub(/.*le="/, "", le); sub(/".*/, "", le)
      if (f == 1) { b[le] += $NF } else { if (!(le in a)) order[++n] = le; a[le] += $NF }
    }
    END {
      total = a["+Inf"] - b["+Inf"]
      if (total <= 0) { print name ": no observations"; exit }
      out = name " " sel " (" total "):"
      split("50 90 99", qs, " ")
      for (k = 1; k <= 3; k++) {
        for (i = 1; i < n && a[order[i]] - b[order[i]] < qs[k] / 100 * total; i++) {}
        out = out " p" qs[k] "<=" order[i] "s"
      }
      print out
    }' "$1" "$2"
}
