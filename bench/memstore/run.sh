#!/usr/bin/env bash
# Memory create and get by version id on the two stores, without HTTP
# (storetest.BenchMemory): Pebble and PostgreSQL alternate, ROUNDS rounds.
# Needs CAIRN_TEST_POSTGRES_URL (a local PostgreSQL).
# Usage: bench/memstore/run.sh [rounds] [benchtime]
set -euo pipefail
cd "$(dirname "$0")/../.."
rounds=${1:-3}
benchtime=${2:-5000x}
: "${CAIRN_TEST_POSTGRES_URL:?set CAIRN_TEST_POSTGRES_URL}"
for r in $(seq "$rounds"); do
	for pkg in pebble postgres; do
		go test -run '^$' -bench MemoryRaw -benchtime "$benchtime" "./store/$pkg" |
			awk -v r="$r" -v p="$pkg" '/^BenchmarkMemoryRaw/ { print "round " r, p, $0 }'
	done
done
