package ingest

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/screening"
)

// TestSortListingsMatchesCompare: the keyed sort orders listings exactly as
// sorting them by compareListings does, and drops the same repeats, on
// listings built to tie in the key's 14 address bytes, to differ only after
// them, to be shorter than them, and to repeat.
func TestSortListingsMatchesCompare(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	fams := []screening.Family{screening.EVM, screening.Bitcoin, screening.Tron, "a", "zz"}
	prefixes := []string{"", "0x", "0x12345678901234", "0x1234567890123", "bc1q"}
	for round := range 50 {
		n := rng.IntN(3000)
		ls := make([]screening.Listing, n)
		for i := range ls {
			addr := prefixes[rng.IntN(len(prefixes))] + fmt.Sprintf("%x", rng.IntN(64))
			if rng.IntN(10) == 0 {
				addr = addr[:rng.IntN(len(addr)+1)]
			}
			ls[i] = screening.Listing{Family: fams[rng.IntN(len(fams))], Address: addr, Match: screening.Match{
				Source: []string{"gov_sdn", "list:eth", "community"}[rng.IntN(3)], EntityID: fmt.Sprint(rng.IntN(3)),
				EntityName: fmt.Sprint(i), // not in the key: which of two repeats is kept must not matter
			}}
		}
		want := slices.Clone(ls)
		slices.SortStableFunc(want, compareListings)
		want = slices.CompactFunc(want, func(a, b screening.Listing) bool { return compareListings(a, b) == 0 })
		got := sortListings(slices.Clone(ls))
		if len(got) != len(want) {
			t.Fatalf("round %d: %d listings kept, want %d", round, len(got), len(want))
		}
		for i := range got {
			if compareListings(got[i], want[i]) != 0 {
				t.Fatalf("round %d, position %d: %+v, want %+v", round, i, got[i], want[i])
			}
		}
		for i := range got { // each kept listing is one of the input's, whole
			if !slices.Contains(ls, got[i]) {
				t.Fatalf("round %d: %+v is not an input listing", round, got[i])
			}
		}
	}
}
