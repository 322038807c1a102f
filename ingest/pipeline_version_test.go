package ingest

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// TestDiffGroups: a version's diff is the union of its sources' diffs; an
// unchanged source (the same Listings) adds nothing, a source gone removes
// all its listings, a new one adds all of its own, and a listing whose
// details changed is added again (and counted as changed).
func TestDiffGroups(t *testing.T) {
	l := func(src, addr string) screening.Listing {
		return screening.Listing{Family: screening.EVM, Address: addr, Match: screening.Match{Source: src, EntityID: "1"}}
	}
	ls := func(x ...screening.Listing) *screening.Listings {
		t.Helper()
		out, err := screening.NewListings(x)
		if err != nil {
			t.Fatal(err)
		}
		return out
	}
	kept := ls(l("gov_sdn", "0x01"), l("gov_sdn", "0x02"))
	prev := map[string]*screening.Listings{
		"gov_sdn":       kept,
		"list:ethereum": ls(l("list:ethereum", "0x01"), l("list:ethereum", "0x03")),
		"list:gone":     ls(l("list:gone", "0x09")),
	}
	next := map[string]*screening.Listings{
		"gov_sdn":       kept,
		"list:ethereum": ls(l("list:ethereum", "0x04"), l("list:ethereum", "0x03")),
		"community":     ls(l("community", "0x05")),
	}
	added, removed, _ := diffGroups(prev, next)
	key := func(es *listingEntries) (out []string) {
		for _, x := range es.slice() {
			out = append(out, x.Source+"/"+x.Address)
		}
		return out
	}
	// In key order: (family, address, source, entity id).
	if got, want := key(added), []string{"list:ethereum/0x04", "community/0x05"}; !slices.Equal(got, want) {
		t.Errorf("added %v, want %v", got, want)
	}
	if got, want := key(removed), []string{"list:ethereum/0x01", "list:gone/0x09"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	// A changed copy of a kept source is compared, not skipped.
	next["gov_sdn"] = ls(l("gov_sdn", "0x01"), l("gov_sdn", "0x07"))
	if added, removed, _ := diffGroups(prev, next); !slices.Contains(key(added), "gov_sdn/0x07") || !slices.Contains(key(removed), "gov_sdn/0x02") {
		t.Errorf("a changed source: added %v, removed %v", key(added), key(removed))
	}
	// A listing with new details is stored again, counted as changed, not
	// removed.
	renamed := l("gov_sdn", "0x02")
	renamed.EntityName, renamed.Programs = "E", cairn.ProgramsOf([]string{"DPRK3"})
	next["gov_sdn"] = ls(l("gov_sdn", "0x01"), renamed)
	if added, removed, changed := diffGroups(prev, next); !slices.Equal(key(added), []string{"gov_sdn/0x02", "list:ethereum/0x04", "community/0x05"}) ||
		changed != 1 || slices.Contains(key(removed), "gov_sdn/0x02") || added.At(0) != toEntry(renamed) {
		t.Errorf("a listing with new details: added %v (%d changed), removed %v", key(added), changed, key(removed))
	}
	// The first version adds every listing, whole.
	added, removed, _ = diffGroups(nil, map[string]*screening.Listings{"gov_sdn": kept})
	want := []cairn.ListEntry{{Family: "evm", Address: "0x01", Source: "gov_sdn", EntityID: "1"},
		{Family: "evm", Address: "0x02", Source: "gov_sdn", EntityID: "1"}}
	if !slices.Equal(added.slice(), want) || removed.Len() != 0 {
		t.Errorf("first version: added %+v, removed %+v", added, removed)
	}
}

// TestDiffGroupsKeyOrder: the changes of several sources come in key order
// across them, as the store merges them, whatever the sources' names.
func TestDiffGroupsKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(7, 8))
	group := func(src string, n int) *screening.Listings {
		t.Helper()
		var b screening.ListingsBuilder
		for range n {
			b.Add(screening.EVM, fmt.Sprintf("0x%040x", rng.IntN(500)), screening.Match{Source: src, EntityID: fmt.Sprint(rng.IntN(2))})
		}
		l, err := b.Sorted()
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	prev := map[string]*screening.Listings{"b": group("b", 300), "a": group("a", 300), "c": group("c", 10)}
	next := map[string]*screening.Listings{"b": group("b", 300), "a": group("a", 300), "d": group("d", 50)}
	added, removed, _ := diffGroups(prev, next)
	for _, es := range []*listingEntries{added, removed} {
		got := es.slice()
		if len(got) < 50 || !slices.IsSortedFunc(got, func(a, b cairn.ListEntry) int {
			return cmp.Or(strings.Compare(a.Address, b.Address), strings.Compare(a.Source, b.Source), strings.Compare(a.EntityID, b.EntityID))
		}) {
			t.Fatalf("%d changes, not in key order", len(got))
		}
	}
	// Applying the changes to prev gives next.
	set := map[cairn.ListEntry]bool{}
	for _, g := range prev {
		for l := range g.All() {
			set[toEntry(l)] = true
		}
	}
	for _, e := range removed.slice() {
		delete(set, e)
	}
	for _, e := range added.slice() {
		set[e] = true
	}
	want := 0
	for _, g := range next {
		for l := range g.All() {
			want++
			if !set[toEntry(l)] {
				t.Fatalf("%+v missing after the diff", l)
			}
		}
	}
	if len(set) != want {
		t.Fatalf("%d entries after the diff, want %d", len(set), want)
	}
}
