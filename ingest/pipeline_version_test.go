package ingest

import (
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/screening"
)

// TestDiffGroups: a version's diff is the union of its sources' diffs; an
// unchanged source (the same Listings) adds nothing, a source gone removes
// all its listings, a new one adds all of its own.
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
	added, removed := diffGroups(prev, next)
	key := func(es []cairn.ListEntry) (out []string) {
		for _, x := range es {
			out = append(out, x.Source+"/"+x.Address)
		}
		return out
	}
	// In source order, each source's in key order.
	if got, want := key(added), []string{"community/0x05", "list:ethereum/0x04"}; !slices.Equal(got, want) {
		t.Errorf("added %v, want %v", got, want)
	}
	if got, want := key(removed), []string{"list:ethereum/0x01", "list:gone/0x09"}; !slices.Equal(got, want) {
		t.Errorf("removed %v, want %v", got, want)
	}
	// A changed copy of a kept source is compared, not skipped.
	next["gov_sdn"] = ls(l("gov_sdn", "0x01"), l("gov_sdn", "0x07"))
	if added, removed := diffGroups(prev, next); !slices.Contains(key(added), "gov_sdn/0x07") || !slices.Contains(key(removed), "gov_sdn/0x02") {
		t.Errorf("a changed source: added %v, removed %v", key(added), key(removed))
	}
	// The first version adds every listing, whole.
	added, removed = diffGroups(nil, map[string]*screening.Listings{"gov_sdn": kept})
	want := []cairn.ListEntry{{Family: "evm", Address: "0x01", Source: "gov_sdn", EntityID: "1"},
		{Family: "evm", Address: "0x02", Source: "gov_sdn", EntityID: "1"}}
	if !slices.Equal(added, want) || len(removed) != 0 {
		t.Errorf("first version: added %+v, removed %+v", added, removed)
	}
}
