# Sourced by the screening benchmarks, from the repository root, with
# $work set: the cairn serve sources of a run. Sets srcs (the --source
# flags), listed (a file whose first lines are listed EVM addresses) and
# want (the address count to wait for in GET /v1/compliance/stats, 0: no
# wait). With LIST=<n>, the only source is a synthetic list:ethereum of n
# random EVM addresses (the same n addresses in every run); else the real
# OFAC per-asset lists. Also sets body, the screening request of 100
# addresses (50 listed).
. bench/lib.sh
srcs=()
listed=ingest/testdata/ofac_lists/sanctioned_addresses_ETH.txt
want=0
if [ -n "${LIST:-}" ]; then
  synthetic_list "$LIST" "$work/list.txt"
  srcs+=(--source "list:ethereum=$work/list.txt")
  listed="$work/list.txt"
  want=$LIST
else
  for f in ingest/testdata/ofac_lists/sanctioned_addresses_*.txt; do
    t=$(basename "$f" .txt); t=${t#sanctioned_addresses_}; t=${t%%.*}
    srcs+=(--source "list:$t=$(pwd)/$f")
  done
fi
body=$(screen_body "$listed")
