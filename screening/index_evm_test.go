package screening

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/merkle"
)

// TestEVMTable: every address of the table is found with its entry and no
// other address is, whatever the table's size, including addresses
// crowded into one directory bucket (chosen leading zeros) and addresses
// differing only in their last byte.
func TestEVMTable(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{0, 1, 2, 4, 5, 17, 1000, 70000} {
		keys := map[[20]byte]bool{}
		for len(keys) < n {
			var k [20]byte
			for i := range k {
				k[i] = byte(rng.IntN(256))
			}
			switch rng.IntN(4) {
			case 0: // vanity: leading zero bytes
				clear(k[:rng.IntN(12)])
			case 1: // a neighbour of a key already in
				for o := range keys {
					k = o
					k[19] ^= byte(1 + rng.IntN(255))
					break
				}
			}
			keys[k] = true
		}
		sorted := slices.SortedFunc(func(yield func([20]byte) bool) {
			for k := range keys {
				if !yield(k) {
					return
				}
			}
		}, func(a, b [20]byte) int { return slices.Compare(a[:], b[:]) })
		slots := make([]evmSlot, len(sorted))
		for i, k := range sorted {
			slots[i] = evmSlot{k: k, e: entry{m: uint32(i), leaf: int32(i), cleaf: -1}}
		}
		var tb evmTable
		tb.index(slots)
		for i, k := range sorted {
			if e, ok := tb.get(k); !ok || e.m != uint32(i) {
				t.Fatalf("n=%d: key %d: %+v %v", n, i, e, ok)
			}
			k[19]++ // absent unless the next key
			if _, ok := tb.get(k); ok != keys[k] {
				t.Fatalf("n=%d: absent key %x found", n, k)
			}
		}
		if _, ok := tb.get([20]byte{}); ok != keys[[20]byte{}] {
			t.Fatalf("n=%d: zero key", n)
		}
	}
}

// TestBuildEVMAcrossGroups: an EVM address listed by several groups and
// repeated within one has its matches in the order of the groups and of
// the listings; every address screens and proves, whether its group came
// sorted or not.
func TestBuildEVMAcrossGroups(t *testing.T) {
	addr := func(i int) string { return fmt.Sprintf("0x%040x", i*7919) }
	m := func(src string, i int) Match {
		return Match{Source: src, EntityID: fmt.Sprint(i), Category: "sanctions"}
	}
	var g1, g2 []Listing
	for i := 300; i > 0; i-- { // unsorted
		g1 = append(g1, Listing{EVM, addr(i), m("gov_sdn", i)})
	}
	for i := 1; i <= 300; i += 3 {
		g2 = append(g2, Listing{EVM, addr(i), m("list:eth", i)}, Listing{EVM, addr(i), m("list:eth", -i)})
	}
	const btc = "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h"
	g3 := []Listing{{EVM, addr(5), m(SourceCommunity, 1)}, {Bitcoin, btc, m("gov_sdn", 0)}, {EVM, addr(1000), m(SourceCommunity, 2)}}
	ix, err := Build(1, time.Time{}, g1, g2, g3)
	if err != nil {
		t.Fatal(err)
	}
	if ix.Len() != 302 {
		t.Fatalf("%d addresses", ix.Len())
	}
	if s, c := ix.Leaves(); s != 301 || c != 2 {
		t.Fatalf("leaves %d and %d", s, c)
	}
	for i := 1; i <= 300; i++ {
		want := []Match{m("gov_sdn", i)}
		if i%3 == 1 {
			want = append(want, m("list:eth", i), m("list:eth", -i))
		}
		if i == 5 {
			want = append(want, m(SourceCommunity, 1))
		}
		if got := ix.Lookup(EVM, addr(i)); !slices.Equal(got, want) {
			t.Fatalf("address %d: %+v, want %+v", i, got, want)
		}
		leaf, proof, ok := ix.Proof(EVM, addr(i))
		if v, err := merkle.VerifyStandard(ix.Root(), merkle.Strings2, []any{"evm", addr(i)}, proof); !ok || err != nil || !v ||
			leaf != merkle.LeafHashStrings2("evm", addr(i)) {
			t.Fatalf("address %d: no valid proof", i)
		}
	}
	if ix.ClassOf(EVM, addr(1000)) != ClassCommunity || ix.ClassOf(EVM, addr(5)) != ClassSanctions {
		t.Fatal("classes")
	}
	mp, values, err := ix.MultiProof([][2]string{{"evm", addr(2)}, {"evm", addr(1000)}, {"bitcoin", btc}, {"evm", addr(9)}})
	if err != nil || len(mp.Leaves) != 3 || len(values) != 3 {
		t.Fatalf("multiproof: %+v %v %v", mp, values, err)
	}
	vs := make([][]any, len(values))
	for k, v := range values {
		if v != [2]string{"evm", addr(2)} && v != [2]string{"evm", addr(9)} && v != [2]string{"bitcoin", btc} {
			t.Fatalf("multiproof value %v", v)
		}
		vs[k] = []any{v[0], v[1]}
	}
	if ok, err := merkle.VerifyStandardMultiProof(ix.Root(), merkle.Strings2, vs, mp.Proof, mp.ProofFlags); err != nil || !ok {
		t.Fatalf("multiproof does not verify: %v", err)
	}
}
