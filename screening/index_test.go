package screening

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
)

func TestIndexScreen(t *testing.T) {
	const evmAddr = "0x8589427373d6d84e98730d7795d8f6f8731fda16" // Tornado Cash, OFAC-listed
	sdn := Match{EntityID: "1", EntityName: "TORNADO CASH", Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}
	comm := Match{EntityID: "r", Source: SourceCommunity, Category: "scam", Severity: "medium"}
	ix, err := Build(3, time.Unix(0, 0), []Listing{
		{Family: EVM, Address: evmAddr, Match: sdn},
		{Family: Bitcoin, Address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", Match: sdn},
		{Family: Tron, Address: "TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz", Match: comm},
	})
	if err != nil {
		t.Fatal(err)
	}
	res, err := ix.Screen([]Query{
		{Address: evmAddr, Chain: "ethereum"},
		{Address: "0x8589427373D6D84E98730D7795D8F6F8731FDA16", Chain: "polygon"},
		{Address: "0x8589427373D6D84E98730D7795D8F6F8731FdA16", Chain: "bsc"}, // wrong checksum case
		{Address: "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", Chain: "bitcoin"},
		{Address: "TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz", Chain: "tron"},
		{Address: "0x0000000000000000000000000000000000000001", Chain: "base"},
		{Address: "not an address", Chain: "ethereum"},
	}, true)
	if err != nil {
		t.Fatal(err)
	}
	want := []string{StatusSanctioned, StatusSanctioned, StatusSanctioned, StatusSanctioned, StatusFlagged, StatusClear, StatusInvalidAddress}
	for i, r := range res {
		if r.Status != want[i] {
			t.Errorf("result %d (%s on %s) = %s, want %s", i, r.Address, r.Chain, r.Status, want[i])
		}
	}
	if res[2].Checksum != "invalid" || res[0].Checksum != "none" || res[1].Checksum != "none" {
		t.Errorf("checksums: %q %q %q", res[0].Checksum, res[1].Checksum, res[2].Checksum)
	}
	res, _ = ix.Screen([]Query{{Address: "TA3941uFAvmVibSkQ6fMJXxmaSNovX86mz", Chain: "trx"}}, false)
	if res[0].Status != StatusClear || len(res[0].Matches) != 0 {
		t.Errorf("includeCommunity false: %+v", res[0])
	}
	if _, err := ix.Screen([]Query{{Address: evmAddr, Chain: "narnia"}}, true); !cairn.IsCode(err, cairn.EINVALID) {
		t.Errorf("unknown chain: %v", err)
	}
	leaf, proof, ok := ix.Proof(EVM, evmAddr)
	if !ok {
		t.Fatal("no proof for a listed address")
	}
	if v, err := merkle.VerifyStandard(ix.Root(), []string{"string", "string"}, []any{"evm", evmAddr}, proof); err != nil || !v {
		t.Fatalf("proof does not verify: %v", err)
	}
	if leaf != merkle.LeafHashStrings2("evm", evmAddr) {
		t.Fatal("leaf hash")
	}
	if _, _, ok := ix.Proof(EVM, "0x0000000000000000000000000000000000000001"); ok {
		t.Fatal("proof for an unlisted address")
	}
}

func TestHolder(t *testing.T) {
	var h Holder
	if h.Current().Len() != 0 || h.Current().Version != 0 {
		t.Fatal("empty holder")
	}
	ix, _ := Build(1, time.Now(), []Listing{{Family: EVM, Address: "0x0000000000000000000000000000000000000001"}})
	h.Swap(ix)
	if h.Current() != ix {
		t.Fatal("swap")
	}
}

// TestIndexSharedMatches lists addresses that share a match and one with
// two matches: the shared table must never be written through.
func TestIndexSharedMatches(t *testing.T) {
	a := Match{EntityID: "a", Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}
	b := Match{EntityID: "b", Source: SourceAggregated, Category: "sanctions", Severity: "high"}
	const x, y, z = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2", "0x00000000000000000000000000000000000000a3"
	ix, err := Build(1, time.Unix(0, 0), []Listing{
		{Family: EVM, Address: x, Match: a}, {Family: EVM, Address: y, Match: a}, {Family: EVM, Address: y, Match: b},
		{Family: EVM, Address: z, Match: a},
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		addr string
		want []Match
	}{{x, []Match{a}}, {y, []Match{a, b}}, {z, []Match{a}}} {
		t.Run(tc.addr, func(t *testing.T) {
			got := ix.Lookup(EVM, tc.addr)
			if len(got) != len(tc.want) {
				t.Fatalf("matches %+v, want %+v", got, tc.want)
			}
			for i := range got {
				if got[i] != tc.want[i] {
					t.Fatalf("matches %+v, want %+v", got, tc.want)
				}
			}
		})
	}
	if ix.Len() != 3 || ix.BySource()[SourceGovSDN] != 3 || len(ix.Sources) != 2 {
		t.Fatalf("len %d, by source %v, sources %v", ix.Len(), ix.BySource(), ix.Sources)
	}
}

// TestIndexProofEveryListing checks the leaf each entry points at: every
// listed address, including ones listed by several sources and in several
// families, gets its own leaf in the tree of its class and a proof that
// verifies against that tree's root; a community listing is never a leaf
// of the sanctions tree; a multiproof per class verifies too.
func TestIndexProofEveryListing(t *testing.T) {
	ls := syntheticListings(500)
	comm := Match{EntityID: "r", Source: SourceCommunity, Category: "scam", Severity: "medium"}
	for i := 0; i < 500; i += 7 { // listed by a sanctions source and the community
		ls = append(ls, Listing{Family: EVM, Address: ls[i].Address, Match: comm})
	}
	ls = append(ls, Listing{Family: Tron, Address: ls[3].Address, Match: comm}) // same string, other family
	ix, err := Build(1, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	if s, c := ix.Leaves(); ix.Len() != 501 || s != 500 || c != 73 {
		t.Fatalf("Len %d, leaves %d sanctions and %d community, want 501, 500 and 73", ix.Len(), s, c)
	}
	enc := []string{"string", "string"}
	pairs := map[string][][2]string{}
	seen := map[string]map[merkle.Hash]bool{ClassSanctions: {}, ClassCommunity: {}}
	for _, l := range ls {
		class := ClassCommunity
		if SanctionsSource(l.Source) {
			class = ClassSanctions
		}
		leaf, proof, ok := ix.ProofIn(class, l.Family, l.Address)
		if !ok {
			t.Fatalf("no %s proof for %s %s", class, l.Family, l.Address)
		}
		if leaf != merkle.LeafHashStrings2(string(l.Family), l.Address) {
			t.Fatalf("leaf of %s %s is another address's", l.Family, l.Address)
		}
		if v, err := merkle.VerifyStandard(ix.RootOf(class), enc, []any{string(l.Family), l.Address}, proof); err != nil || !v {
			t.Fatalf("%s proof of %s %s does not verify: %v", class, l.Family, l.Address, err)
		}
		seen[class][leaf] = true
		pairs[class] = append(pairs[class], [2]string{string(l.Family), l.Address})
	}
	if len(seen[ClassSanctions]) != 500 || len(seen[ClassCommunity]) != 73 {
		t.Fatalf("%d and %d distinct leaves, want 500 and 73", len(seen[ClassSanctions]), len(seen[ClassCommunity]))
	}
	// The class: sanctions wins over the community; a community listing
	// alone is no leaf of the sanctions tree.
	if ix.ClassOf(EVM, ls[0].Address) != ClassSanctions || ix.ClassOf(Tron, ls[3].Address) != ClassCommunity ||
		ix.ClassOf(EVM, "0x0000000000000000000000000000000000000001") != "" {
		t.Fatal("classes")
	}
	if _, _, ok := ix.Proof(Tron, ls[3].Address); ok {
		t.Fatal("a community listing has a sanctions proof")
	}
	if ix.Root() == ix.CommunityRoot() || ix.CommunityRoot() == (merkle.Hash{}) {
		t.Fatal("roots")
	}
	for class, want := range map[string]int{ClassSanctions: 500, ClassCommunity: 73} {
		mp, values, err := ix.MultiProofIn(class, append(pairs[class], [2]string{"evm", "0x0000000000000000000000000000000000000001"}))
		if err != nil {
			t.Fatal(err)
		}
		if len(values) != want {
			t.Fatalf("%s multiproof covers %d values, want %d (duplicates and unlisted skipped)", class, len(values), want)
		}
		vs := make([][]any, len(values))
		for i, v := range values {
			vs[i] = []any{v[0], v[1]}
		}
		if ok, err := merkle.VerifyStandardMultiProof(ix.RootOf(class), enc, vs, mp.Proof, mp.ProofFlags); err != nil || !ok {
			t.Fatalf("%s multiproof does not verify: %v", class, err)
		}
	}
}

// TestSanctionsTreeUnchangedByCommunity: the sanctions tree is the
// OpenZeppelin ["string","string"] tree of the sanctions listings alone,
// the same bytes whether community escalations exist or not.
func TestSanctionsTreeUnchangedByCommunity(t *testing.T) {
	ls := syntheticListings(50)
	var pairs [][2]string
	for _, l := range ls {
		pairs = append(pairs, [2]string{string(l.Family), l.Address})
	}
	want, err := merkle.NewStrings2Tree(pairs, true)
	if err != nil {
		t.Fatal(err)
	}
	comm := Match{EntityID: "r", Source: SourceCommunity, Category: "scam", Severity: "medium"}
	with := append(append([]Listing{}, ls...), Listing{Family: EVM, Address: "0x00000000000000000000000000000000deadbeef", Match: comm})
	for _, in := range [][]Listing{ls, with} {
		ix, err := Build(1, time.Unix(0, 0), in)
		if err != nil {
			t.Fatal(err)
		}
		if ix.Root() != want.Root() {
			t.Fatalf("sanctions root %s, want %s", ix.Root(), want.Root())
		}
	}
	ix, _ := Build(1, time.Unix(0, 0), ls)
	if ix.CommunityRoot() != (merkle.Hash{}) {
		t.Fatal("community root of a list without community listings is not zero")
	}
}

// TestIndexEntryKeys: EVM addresses are kept by their 20 bytes and every
// other string under itself, so each string has one place: the canonical
// EVM address is found, its upper-case spelling is not (lookups take
// canonical addresses), an EVM-family string that is not canonical is found
// under itself, other families by their string; an address listed three
// times keeps its three matches in order.
func TestIndexEntryKeys(t *testing.T) {
	m := func(id string) Match {
		return Match{EntityID: id, Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}
	}
	const evm = "0x00000000000000000000000000000000000000b1"
	const odd = "0x00000000000000000000000000000000000000B2" // not canonical
	const btc = "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h"
	ix, err := Build(1, time.Unix(0, 0), []Listing{
		{Family: EVM, Address: evm, Match: m("1")}, {Family: EVM, Address: evm, Match: m("2")},
		{Family: EVM, Address: evm, Match: m("3")}, {Family: EVM, Address: odd, Match: m("4")},
		{Family: Bitcoin, Address: btc, Match: m("5")},
	})
	if err != nil {
		t.Fatal(err)
	}
	if got := ix.Lookup(EVM, evm); len(got) != 3 || got[0].EntityID != "1" || got[1].EntityID != "2" || got[2].EntityID != "3" {
		t.Fatalf("%s: %+v", evm, got)
	}
	if got := ix.Lookup(EVM, "0x00000000000000000000000000000000000000B1"); got != nil {
		t.Fatalf("the upper-case spelling was found: %+v", got)
	}
	if got := ix.Lookup(EVM, odd); len(got) != 1 || got[0].EntityID != "4" {
		t.Fatalf("%s: %+v", odd, got)
	}
	if got := ix.Lookup(Bitcoin, btc); len(got) != 1 || got[0].EntityID != "5" {
		t.Fatalf("%s: %+v", btc, got)
	}
	if got := ix.Lookup(EVM, btc); got != nil {
		t.Fatalf("found under the wrong family: %+v", got)
	}
	if ix.Len() != 3 {
		t.Fatalf("len %d, want 3", ix.Len())
	}
	for _, a := range []struct {
		f    Family
		addr string
	}{{EVM, evm}, {EVM, odd}, {Bitcoin, btc}} {
		leaf, proof, ok := ix.Proof(a.f, a.addr)
		if !ok || !merkle.Verify(ix.Root(), leaf, proof) {
			t.Fatalf("proof of %s: ok %v", a.addr, ok)
		}
	}
}
