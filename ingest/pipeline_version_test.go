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

// TestDiffGroups: a version's diff is the union of its sources' diffs; an
// unchanged source (the same slice) adds nothing, a source gone removes all
// its listings, a new one adds all of its own.
func TestDiffGroups(t *testing.T) {
	l := func(src, addr string) screening.Listing {
		return screening.Listing{Family: screening.EVM, Address: addr, Match: screening.Match{Source: src, EntityID: "1"}}
	}
	kept := []screening.Listing{l("gov_sdn", "0x01"), l("gov_sdn", "0x02")}
	prev := map[string][]screening.Listing{
		"gov_sdn":       kept,
		"list:ethereum": {l("list:ethereum", "0x01"), l("list:ethereum", "0x03")},
		"list:gone":     {l("list:gone", "0x09")},
	}
	next := map[string][]screening.Listing{
		"gov_sdn":       kept,
		"list:ethereum": {l("list:ethereum", "0x03"), l("list:ethereum", "0x04")},
		"community":     {l("community", "0x05")},
	}
	added, removed := diffGroups(prev, next)
	key := func(ls []screening.Listing) (out []string) {
		for _, x := range ls {
			out = append(out, x.Source+"/"+x.Address)
		}
		slices.Sort(out)
		return out
	}
	if got, want := key(added), []string{"community/0x05", "list:ethereum/0x04"}; !slices.Equal(got, want) {
		t.Errorf("added %v, want %v", got, want)
	}
	if got, want := key(removed), []string{"list:ethereum/0x01", "list:gone/0x09"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	// A changed copy of a kept source is compared, not skipped.
	next["gov_sdn"] = []screening.Listing{l("gov_sdn", "0x01"), l("gov_sdn", "0x07")}
	if added, removed := diffGroups(prev, next); !slices.Contains(key(added), "gov_sdn/0x07") || !slices.Contains(key(removed), "gov_sdn/0x02") {
		t.Errorf("a changed source: added %v, removed %v", key(added), key(removed))
	}
	// The first version of one source is that source's listings, uncopied.
	if added, _ := diffGroups(nil, map[string][]screening.Listing{"gov_sdn": kept}); &added[0] != &kept[0] {
		t.Error("the first version's listings were copied")
	}
}
