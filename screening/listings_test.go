package screening

import (
	"cmp"
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"testing"
	"time"
)

// compareListing is the key order of listings, spelled out: (family,
// address, source, entity id), as strings.
func compareListing(a, b Listing) int {
	return cmp.Or(strings.Compare(string(a.Family), string(b.Family)), strings.Compare(a.Address, b.Address),
		strings.Compare(a.Source, b.Source), strings.Compare(a.EntityID, b.EntityID))
}

// randomListings are built to tie in the sort key's 14 address bytes, to
// differ only after them, to be shorter than them, to repeat, and to mix
// canonical EVM addresses (held as 20 bytes) with other strings of the
// same family and prefix (held as strings).
func randomListings(rng *rand.Rand, n int) []Listing {
	fams := []Family{EVM, Bitcoin, Tron, "a", "zz"}
	prefixes := []string{"", "0x", "0x12345678901234", "0x1234567890123", "bc1q", "0x12345678901234567890123456789012345678"}
	ls := make([]Listing, n)
	for i := range ls {
		addr := prefixes[rng.IntN(len(prefixes))] + fmt.Sprintf("%02x", rng.IntN(64))
		switch rng.IntN(10) {
		case 0:
			addr = addr[:rng.IntN(len(addr)+1)]
		case 1:
			addr = strings.ToUpper(addr)
		}
		ls[i] = Listing{Family: fams[rng.IntN(len(fams))], Address: addr, Match: Match{
			Source: []string{"gov_sdn", "list:eth", "community"}[rng.IntN(3)], EntityID: fmt.Sprint(rng.IntN(3)),
			EntityName: fmt.Sprint(i % 7), // not in the key: the first of two repeats is kept
		}}
	}
	return ls
}

// TestListingsSorted: the keyed sort of the compact form orders listings
// exactly as sorting them by their key does, keeps the first of repeated
// keys, and gives back each kept listing whole.
func TestListingsSorted(t *testing.T) {
	rng := rand.New(rand.NewPCG(1, 2))
	for round := range 60 {
		ls := randomListings(rng, rng.IntN(3000))
		want := slices.Clone(ls)
		slices.SortStableFunc(want, compareListing)
		want = slices.CompactFunc(want, func(a, b Listing) bool { return compareListing(a, b) == 0 })
		got, err := NewListings(ls)
		if err != nil {
			t.Fatal(err)
		}
		if got.Len() != len(want) {
			t.Fatalf("round %d: %d listings kept, want %d", round, got.Len(), len(want))
		}
		i := 0
		for l := range got.All() {
			if l != want[i] {
				t.Fatalf("round %d, position %d: %+v, want %+v", round, i, l, want[i])
			}
			if i > 0 && got.Compare(i-1, got, i) >= 0 {
				t.Fatalf("round %d: Compare(%d, %d) >= 0", round, i-1, i)
			}
			i++
		}
	}
}

// TestListingsSortedInKeyOrder: listings added in key order, each key
// once (a version's stored entries), come back as they were added, in the
// builder's own arrays (Grow made room for them all); a repeated key or
// one pair out of order makes Sorted sort, as for any other input.
func TestListingsSortedInKeyOrder(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for round := range 20 {
		sorted, err := NewListings(randomListings(rng, 1+rng.IntN(2000)))
		if err != nil {
			t.Fatal(err)
		}
		in := slices.Collect(sorted.All())
		var b ListingsBuilder
		b.Grow(len(in))
		data := b.l.data[:1]
		for _, l := range in {
			b.Add(l.Family, l.Address, l.Match)
		}
		got, err := b.Sorted()
		if err != nil {
			t.Fatal(err)
		}
		if !got.Equal(sorted) || !slices.Equal(got.fams, sorted.fams) {
			t.Fatalf("round %d: listings in key order came back changed", round)
		}
		if len(got.data) <= cap(data) && &got.data[0] != &data[0] {
			t.Fatalf("round %d: listings in key order were copied", round)
		}
		if len(in) < 2 {
			continue
		}
		// A repeat of a key, then a swap: each is sorted as any input.
		for _, bad := range [][]Listing{slices.Insert(slices.Clone(in), 1, in[0]),
			append([]Listing{in[1], in[0]}, in[2:]...)} {
			for _, l := range bad {
				b.Add(l.Family, l.Address, l.Match)
			}
			if got, err := b.Sorted(); err != nil || !got.Equal(sorted) {
				t.Fatalf("round %d: %v, or listings not in key order were not sorted", round, err)
			}
		}
	}
}

// TestListingsCompact: listings read back as added; a canonical EVM
// address is held as its 20 bytes, anything else as its string.
func TestListingsCompact(t *testing.T) {
	in := []Listing{
		{Family: EVM, Address: "0x8589427373d6d84e98730d7795d8f6f8731fda16", Match: Match{Source: "gov_sdn", EntityID: "1"}},
		{Family: Bitcoin, Address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", Match: Match{Source: "gov_sdn", EntityID: "1"}},
		{Family: EVM, Address: "0x8589427373D6D84E98730D7795D8f6f8731FDA16", Match: Match{Source: "gov_sdn", EntityID: "2", EntityName: "x"}},
		{Family: EVM, Address: "", Match: Match{Source: "community"}},
		{Family: EVM, Address: "0x0000000000000000000000000000000000000000", Match: Match{Source: "gov_sdn", EntityID: "1"}},
	}
	ls, err := compact(in)
	if err != nil {
		t.Fatal(err)
	}
	if ls.Len() != len(in) || ls.evm != 2 || len(ls.table) != 3 {
		t.Fatalf("%d listings, %d packed, %d matches", ls.Len(), ls.evm, len(ls.table))
	}
	if got := slices.Collect(ls.All()); !slices.Equal(got, in) {
		t.Fatalf("read back %+v", got)
	}
	if want := 2*21 + (1 + 34) + (1 + 42) + 1; len(ls.data) != want {
		t.Fatalf("%d bytes of addresses, want %d", len(ls.data), want)
	}
}

// TestListingsEqual: listings are equal when they list the same addresses
// with the same matches, however their tables are laid out.
func TestListingsEqual(t *testing.T) {
	m1, m2 := Match{Source: "s", EntityID: "1"}, Match{Source: "s", EntityID: "2"}
	a1, a2 := "0x0000000000000000000000000000000000000001", "0x0000000000000000000000000000000000000002"
	build := func(ls ...Listing) *Listings {
		l, err := compact(ls)
		if err != nil {
			t.Fatal(err)
		}
		return l
	}
	// The same listings; b's table lists m2 first, c's families differ in order.
	a := build(Listing{EVM, a1, m1}, Listing{EVM, a2, m2}, Listing{Bitcoin, "1x", m1})
	b := &Listings{table: []Match{m2, m1}, match: []uint32{1, 0, 1}}
	b.fams = []Family{Bitcoin, EVM}
	for _, x := range []struct {
		f Family
		a string
	}{{EVM, a1}, {EVM, a2}, {Bitcoin, "1x"}} {
		if err := b.add(x.f, x.a); err != nil {
			t.Fatal(err)
		}
	}
	for _, tc := range []struct {
		name string
		x, y *Listings
		want bool
	}{
		{"Same", a, a, true},
		{"Copy", a, build(Listing{EVM, a1, m1}, Listing{EVM, a2, m2}, Listing{Bitcoin, "1x", m1}), true},
		{"OtherLayout", a, b, true},
		{"OtherMatch", a, build(Listing{EVM, a1, m1}, Listing{EVM, a2, m1}, Listing{Bitcoin, "1x", m1}), false},
		{"OtherAddress", a, build(Listing{EVM, a1, m1}, Listing{EVM, a1, m2}, Listing{Bitcoin, "1x", m1}), false},
		{"OtherFamily", a, build(Listing{EVM, a1, m1}, Listing{EVM, a2, m2}, Listing{Tron, "1x", m1}), false},
		{"Shorter", a, build(Listing{EVM, a1, m1}, Listing{EVM, a2, m2}), false},
		{"NilAndEmpty", nil, build(), true},
		{"NilAndSome", nil, a, false},
	} {
		if got := tc.x.Equal(tc.y); got != tc.want {
			t.Errorf("%s: Equal %v, want %v", tc.name, got, tc.want)
		}
		if got := tc.y.Equal(tc.x); got != tc.want {
			t.Errorf("%s, reversed: Equal %v, want %v", tc.name, got, tc.want)
		}
	}
}

// TestListingsTooManyFamilies: a list naming more families than a tag
// holds is an error, from the builder and from Build, not a crash.
func TestListingsTooManyFamilies(t *testing.T) {
	var ls []Listing
	for i := range 129 {
		ls = append(ls, Listing{Family: Family(fmt.Sprint("f", i)), Address: "a", Match: Match{Source: "s"}})
	}
	if _, err := NewListings(ls); err == nil {
		t.Fatal("129 families accepted by the builder")
	}
	if _, err := Build(1, time.Time{}, ls); err == nil {
		t.Fatal("129 families accepted by Build")
	}
	if _, err := NewListings(ls[:128]); err != nil {
		t.Fatalf("128 families: %v", err)
	}
}
