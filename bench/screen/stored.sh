#!/usr/bin/env bash
# Screening CPU and stored proof size, in process: BenchmarkScreenStored
# (compliance) at BASE and at the working tree, alternating, ROUNDS rounds.
# Prints cpu-us/op (the process's CPU per 100-address screening, 50 listed,
# proof document stored), storedB/op and docB/op per round.
#
#   BASE=6558f96 ROUNDS=3 bash bench/screen/stored.sh
set -euo pipefail
cd "$(dirname "$0")/../.."
base=${BASE:?set BASE to a commit}
rounds=${ROUNDS:-3}
out=$(mktemp -d)
git worktree add -q "$out/base" "$base"
trap 'git worktree remove --force "$out/base"; rm -rf "$out"' EXIT
(cd "$out/base" && go test -c -o "$out/base.test" ./compliance)
go test -c -o "$out/head.test" ./compliance
for r in $(seq 1 "$rounds"); do
  for side in base head; do
    printf '%s round %d: ' "$side" "$r"
    (cd compliance && "$out/$side.test" -test.run '^$' -test.bench 'BenchmarkScreenStored/1000000$' -test.benchtime 2000x) |
      grep -o '[0-9.]* cpu-us/op.*' || true
  done
done
