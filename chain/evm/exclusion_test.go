package evm_test

import (
	"encoding/json"
	"os"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/common"
)

const (
	zeroHex = "0x0000000000000000000000000000000000000000"
	maxHex  = "0xffffffffffffffffffffffffffffffffffffffff"
)

// sortedEVM returns the EVM addresses of pairs in bytewise order.
func sortedEVM(pairs [][2]string) []string {
	var out []string
	for _, p := range pairs {
		if p[0] == "evm" {
			out = append(out, p[1])
		}
	}
	slices.Sort(out)
	return slices.Compact(out)
}

// TestContractExclusionProofs: isNotSanctioned and isNotListed against an
// exclusion tree of the real OFAC lists: clear addresses between listed
// ones, below the first, above the last, 0x00..00 and 0xff..ff; refused for
// listed addresses, forged and widened gaps, a stale root and
// non-canonical spellings.
func TestContractExclusionProofs(t *testing.T) {
	e, addr, w := deployedViews(t)
	_, pairs := fixtureLeaves(t)
	listed := sortedEVM(pairs)
	x := newExclusion(t, pairs, "tron")
	member := newTree(t, pairs)

	between := addrPlus(listed[3], 1)
	below, above := addrPlus(listed[0], -1), addrPlus(listed[len(listed)-1], 1)
	if below <= zeroHex || above >= maxHex || between >= listed[4] {
		t.Fatal("fixture addresses leave no room for the test's clear addresses")
	}
	// Before any root, nothing is clear.
	if w.clear(x, between) {
		t.Fatal("a clear proof verified before any root was set")
	}
	e.setRoots(t, addr, member.Root(), [32]byte{}, x.Root(), [32]byte{}, 1)
	if got := call(t, w.c, w.v.PackExclusionRoot(), w.v.UnpackExclusionRoot); got != x.Root() {
		t.Fatalf("exclusionRoot() = %x", got)
	}
	if r := w.roots(); r.ExclusionRoot != x.Root() || r.SanctionsRoot != member.Root() || r.CommunityExclusionRoot != ([32]byte{}) {
		t.Fatalf("roots() = %+v", r)
	}

	t.Run("Clear", func(t *testing.T) {
		for _, a := range []string{between, below, above, zeroHex, maxHex, addrPlus(listed[10], -1)} {
			g := x.gapOf("evm", a)
			if !w.clear(x, a) || !w.isNotListed("evm", a, g, x.proof(t, "evm", g)) {
				t.Errorf("%s (gap %q) was not proven clear", a, g)
			}
		}
		// The gap leaf as the contract hashes it is merkle's.
		g := x.gapOf("evm", between)
		want, _ := merkle.StandardLeafHash(gapEncoding, []any{"evm", g[0], g[1]})
		if got := call(t, w.c, w.v.PackGapLeafOf("evm", g[0], g[1]), w.v.UnpackGapLeafOf); got != want {
			t.Fatalf("gapLeafOf = %x, merkle %x", got, want)
		}
		// Other families: a bitcoin string between two listed ones, and a
		// family with no address at all.
		btc := x.gaps["bitcoin"][5]
		inBtc := btc[0] + "0" // sorts right after btc[0], before btc[1]
		if !w.isNotListed("bitcoin", inBtc, btc, x.proof(t, "bitcoin", btc)) {
			t.Fatalf("bitcoin %s in gap %q not proven clear", inBtc, btc)
		}
		if empty := [2]string{"", ""}; !w.isNotListed("tron", "TXyz", empty, x.proof(t, "tron", empty)) {
			t.Fatal("an address of a family with no listing not proven clear")
		}
	})
	t.Run("ErrListed", func(t *testing.T) {
		for _, i := range []int{0, 3, len(listed) - 1} {
			a := listed[i]
			var tries [][2]string
			for _, g := range x.gaps["evm"] {
				if g[0] == a || g[1] == a {
					tries = append(tries, g)
				}
			}
			if len(tries) != 2 {
				t.Fatalf("%s bounds %d gaps", a, len(tries))
			}
			for _, g := range tries {
				lo, hi := bounds(g)
				p := x.proof(t, "evm", g)
				if w.isNotSanctioned(common.HexToAddress(a), lo, hi, p) || w.isNotListed("evm", a, g, p) {
					t.Errorf("listed %s proven clear by its gap %q", a, g)
				}
			}
		}
	})
	t.Run("ErrForgedGap", func(t *testing.T) {
		// A widened gap (low and high not consecutive) is no leaf: no
		// proof of a real gap proves it.
		wide := [2]string{listed[2], listed[5]}
		lo, hi := bounds(wide)
		for _, real := range [][2]string{{listed[2], listed[3]}, {listed[4], listed[5]}} {
			p := x.proof(t, "evm", real)
			if w.isNotSanctioned(common.HexToAddress(listed[3]), lo, hi, p) || w.isNotListed("evm", listed[3], wide, p) ||
				w.isNotSanctioned(common.HexToAddress(between), lo, hi, p) {
				t.Fatal("a widened gap verified")
			}
		}
		// The sentinels over the whole range, with the first gap's proof.
		first := x.gaps["evm"][0]
		p := x.proof(t, "evm", first)
		if w.isNotSanctioned(common.HexToAddress(listed[3]), common.Address{}, maxAddr, p) ||
			w.isNotListed("evm", listed[3], [2]string{"", ""}, p) {
			t.Fatal("the gap (\"\", \"\") verified for a family with listings")
		}
		// Another family's gap does not clear an EVM address.
		btc := x.gaps["bitcoin"][0]
		if w.isNotListed("evm", between, btc, x.proof(t, "bitcoin", btc)) {
			t.Fatal("a bitcoin gap cleared an EVM address")
		}
		// The membership tree's proof is no exclusion proof.
		if w.isNotSanctioned(common.HexToAddress(between), common.HexToAddress(listed[3]), common.HexToAddress(listed[4]), proofOf(t, member, "evm", listed[3])) {
			t.Fatal("a membership proof verified as an exclusion proof")
		}
	})
	t.Run("ErrNonCanonical", func(t *testing.T) {
		// The upper-case spelling of a listed address sorts into a gap of
		// the lower-case ones; it must not prove the address clear.
		a := listed[7]
		upper := "0x" + strings.ToUpper(a[2:])
		g := x.gapOf("evm", upper)
		p := x.proof(t, "evm", g)
		if upper == a || g[0] >= upper || (g[1] != "" && upper >= g[1]) {
			t.Fatalf("%s is not inside gap %q", upper, g)
		}
		if w.isNotListed("evm", upper, g, p) {
			t.Fatal("the upper-case spelling of a listed address was proven clear")
		}
		gb := x.gapOf("evm", between)
		pb := x.proof(t, "evm", gb)
		for _, s := range []string{"", strings.TrimPrefix(between, "0x"), between[:41], between + "0", "0X" + between[2:],
			"0x" + strings.ToUpper(between[2:]), between[:41] + "g"} {
			if w.isNotListed("evm", s, gb, pb) {
				t.Errorf("non-canonical %q proven clear", s)
			}
		}
		if w.isNotListed("bitcoin", "", x.gaps["bitcoin"][0], x.proof(t, "bitcoin", x.gaps["bitcoin"][0])) {
			t.Fatal("an empty address was proven clear")
		}
	})
	t.Run("ErrStaleRoot", func(t *testing.T) {
		// Version 2 lists `between`: its version-1 gap proof is refused,
		// and the new tree refuses it too; an address dropped in version 2
		// is clear by the new tree only.
		dropped := listed[20]
		var pairs2 [][2]string
		for _, p := range pairs {
			if p[1] != dropped {
				pairs2 = append(pairs2, p)
			}
		}
		pairs2 = append(pairs2, [2]string{"evm", between})
		x2 := newExclusion(t, pairs2, "tron")
		g1 := x.gapOf("evm", between)
		p1 := x.proof(t, "evm", g1)
		if !w.isNotListed("evm", between, g1, p1) {
			t.Fatal("version 1 proof refused before the update")
		}
		e.setRoots(t, addr, newTree(t, pairs2).Root(), [32]byte{}, x2.Root(), [32]byte{}, 2)
		lo, hi := bounds(g1)
		if w.isNotSanctioned(common.HexToAddress(between), lo, hi, p1) || w.isNotListed("evm", between, g1, p1) {
			t.Fatal("a proof against the stale root verified")
		}
		if w.clear(x2, between) {
			t.Fatal("an address listed in version 2 was proven clear")
		}
		if w.clear(x, dropped) || !w.clear(x2, dropped) {
			t.Fatal("the dropped address must be clear by the version-2 tree only")
		}
		// Untouched gaps changed root too: an old proof of one is refused.
		far := addrPlus(listed[len(listed)-2], 1)
		gf := x.gapOf("evm", far)
		lo, hi = bounds(gf)
		if w.isNotSanctioned(common.HexToAddress(far), lo, hi, x.proof(t, "evm", gf)) || !w.clear(x2, far) {
			t.Fatal("an old proof of an unchanged gap verified against the new root")
		}
	})
}

// TestContractExclusionEdgeAddresses: 0x00..00 and 0xff..ff listed, then
// their literal gap leaves prove their neighbours clear (the fallback from
// the sentinel reading), and they themselves are never clear.
func TestContractExclusionEdgeAddresses(t *testing.T) {
	e, addr, w := deployedViews(t)
	_, pairs := fixtureLeaves(t)
	pairs = append(pairs, [2]string{"evm", zeroHex}, [2]string{"evm", maxHex})
	listed := sortedEVM(pairs)
	x := newExclusion(t, pairs)
	e.setRoots(t, addr, newTree(t, pairs).Root(), [32]byte{}, x.Root(), [32]byte{}, 1)
	ev := x.gaps["evm"]
	if ev[0] != [2]string{"", zeroHex} || ev[1] != [2]string{zeroHex, listed[1]} || ev[len(ev)-1] != [2]string{maxHex, ""} {
		t.Fatalf("edge gaps %q %q %q", ev[0], ev[1], ev[len(ev)-1])
	}
	// Every reading of every gap refuses 0x00..00 and 0xff..ff.
	for _, a := range []common.Address{{}, maxAddr} {
		for _, g := range ev {
			lo, hi := bounds(g)
			p := x.proof(t, "evm", g)
			if w.isNotSanctioned(a, lo, hi, p) || w.isNotListed("evm", lowerHex(a), g, p) {
				t.Fatalf("listed %s proven clear by gap %q", a, g)
			}
		}
	}
	// 0x00..01 is in the gap (0x00..00, a1): low 0 read literally.
	for _, a := range []string{addrPlus(zeroHex, 1), addrPlus(maxHex, -1), addrPlus(listed[1], -1)} {
		g := x.gapOf("evm", a)
		if !w.clear(x, a) || !w.isNotListed("evm", a, g, x.proof(t, "evm", g)) {
			t.Errorf("%s in gap %q not proven clear", a, g)
		}
	}
}

// TestContractExclusionFixtureVector: cairn's exclusion tree of the OFAC
// ETH list puts the vector's query in the vector's gap, and the
// verifier's address convention is the vector's (0x00..00 and 0xff..ff as
// sentinels).
func TestContractExclusionFixtureVector(t *testing.T) {
	raw, err := os.ReadFile("testdata/oz_linked_leaf_nonmembership_vector.json")
	if err != nil {
		t.Fatal(err)
	}
	var vec struct {
		Count  int           `json:"count_leaves"`
		Root   merkle.Hash   `json:"root"`
		Query  string        `json:"query"`
		Low    [2]string     `json:"low_leaf"`
		Proof  []merkle.Hash `json:"proof"`
		Verify bool          `json:"verifies"`
	}
	if err := json.Unmarshal(raw, &vec); err != nil {
		t.Fatal(err)
	}
	// The vector itself holds, with its ["address","address"] encoding.
	if ok, err := merkle.VerifyStandard(vec.Root, []string{"address", "address"}, []any{vec.Low[0], vec.Low[1]}, vec.Proof); err != nil || !ok || !vec.Verify {
		t.Fatalf("the fixture vector does not verify: %v %v", ok, err)
	}
	evmAddrs, _ := fixtureLeaves(t)
	var pairs [][2]string
	for _, a := range evmAddrs {
		pairs = append(pairs, [2]string{"evm", a})
	}
	x := newExclusion(t, pairs)
	if len(x.gaps["evm"]) != vec.Count || x.tree.Len() != vec.Count {
		t.Fatalf("%d gaps, the vector has %d leaves", len(x.gaps["evm"]), vec.Count)
	}
	g := x.gapOf("evm", vec.Query)
	if g != vec.Low {
		t.Fatalf("query %s in gap %q, the vector's is %q", vec.Query, g, vec.Low)
	}
	// The vector's first and last leaves carry the sentinels as 0x00..00
	// and 0xff..ff; cairn's carry "", and the verifier takes the vector's
	// addresses for them.
	e, addr, w := deployedViews(t)
	e.setRoots(t, addr, [32]byte{}, [32]byte{}, x.Root(), [32]byte{}, 1)
	first, last := x.gaps["evm"][0], x.gaps["evm"][len(x.gaps["evm"])-1]
	for _, c := range []struct {
		gap    [2]string
		lo, hi string // as the vector spells the leaf
		query  string
	}{
		{g, vec.Low[0], vec.Low[1], vec.Query},
		{first, zeroHex, first[1], addrPlus(first[1], -1)},
		{last, last[0], maxHex, addrPlus(last[0], 1)},
	} {
		ok := w.isNotSanctioned(common.HexToAddress(c.query), common.HexToAddress(c.lo), common.HexToAddress(c.hi), x.proof(t, "evm", c.gap))
		if !ok {
			t.Errorf("query %s with the vector's bounds (%s, %s) refused", c.query, c.lo, c.hi)
		}
	}
}
