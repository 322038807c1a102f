package screening

import (
	"bytes"
	"encoding/json"
	"fmt"
	"math/rand/v2"
	"os"
	"os/exec"
	"path/filepath"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/internal/testenv"
	"github.com/cairn-dev/cairn/merkle"
)

// readFamily reads an OFAC per-ticker list as canonical addresses of f,
// leaving out the lines that are not addresses of f (OFAC files a few
// addresses under another currency).
func readFamily(t *testing.T, file string, f Family) []string {
	t.Helper()
	var out []string
	for _, line := range readList(t, filepath.Join("testdata", "ofac", file)) {
		if canon, st := Normalize(f, line); st != StatusInvalid {
			out = append(out, canon)
		}
	}
	return out
}

// referenceGaps is the gap values of the listed addresses by family,
// written the plain way: every family sorted, its gaps in order, "" at
// the open ends, in the order of Families.
func referenceGaps(listed map[Family][]string) [][3]string {
	var out [][3]string
	for _, f := range Families() {
		as := slices.Clone(listed[f])
		slices.Sort(as)
		as = slices.Compact(as)
		prev := ""
		for _, a := range as {
			out = append(out, [3]string{string(f), prev, a})
			prev = a
		}
		out = append(out, [3]string{string(f), prev, ""})
	}
	return out
}

func gapTree(t *testing.T, gaps [][3]string) *merkle.StandardTree {
	t.Helper()
	values := make([][]any, len(gaps))
	for i, g := range gaps {
		values[i] = []any{g[0], g[1], g[2]}
	}
	tree, err := merkle.NewStandardTree(values, ExclusionEncoding, true)
	if err != nil {
		t.Fatal(err)
	}
	return tree
}

// checkExcluded: an unlisted canonical address has an exclusion proof
// that verifies against the class's exclusion root, whose leaf is the
// hash of its gap, and whose gap holds it; a listed one has none.
func checkExcluded(t *testing.T, ix *Index, class string, f Family, canon string, listed bool) Gap {
	t.Helper()
	g, ok := ix.ExclusionProof(class, f, canon)
	if listed {
		if ok {
			t.Fatalf("%s %s %s is listed but has an exclusion proof %+v", class, f, canon, g)
		}
		return g
	}
	if !ok {
		t.Fatalf("%s %s %s: no exclusion proof", class, f, canon)
	}
	if g.Family != f || g.Leaf != merkle.LeafHashStrings3(string(f), g.Low, g.High) {
		t.Fatalf("%s %s: leaf %s is not the hash of its gap %+v", f, canon, g.Leaf, g)
	}
	if !merkle.Verify(ix.ExclusionRootOf(class), g.Leaf, g.Proof) {
		t.Fatalf("%s %s %s: the proof does not verify", class, f, canon)
	}
	if !(g.Low == "" || g.Low < canon) || !(g.High == "" || canon < g.High) {
		t.Fatalf("%s %s: the gap (%q, %q) does not hold it", f, canon, g.Low, g.High)
	}
	return g
}

// TestExclusionTrees: both exclusion trees of an index built from real
// OFAC lists (EVM, Bitcoin, Tron) and community listings are the
// StandardMerkleTree of the plain gap construction; every unlisted
// address has a proof (random ones, the neighbours of every listed one,
// the extremes, every family without listings), no listed one has one,
// and the membership roots are untouched.
func TestExclusionTrees(t *testing.T) {
	sanctions := map[Family][]string{
		EVM:     readFamily(t, "sanctioned_addresses_ETH.txt", EVM),
		Bitcoin: readFamily(t, "sanctioned_addresses_XBT.txt", Bitcoin),
		Tron:    readFamily(t, "sanctioned_addresses_TRX.txt", Tron),
	}
	community := map[Family][]string{
		EVM: {"0x1111111111111111111111111111111111111111", sanctions[EVM][3]}, // one of them also sanctioned
	}
	ix := classIndex(t, sanctions, community)
	for _, c := range []struct {
		class  string
		listed map[Family][]string
	}{{ClassSanctions, sanctions}, {ClassCommunity, community}} {
		want := gapTree(t, referenceGaps(c.listed))
		if got := ix.ExclusionRootOf(c.class); got != want.Root() {
			t.Fatalf("%s exclusion root %s, want %s", c.class, got, want.Root())
		}
		isListed := map[[2]string]bool{}
		for f, as := range c.listed {
			for _, a := range as {
				isListed[[2]string{string(f), a}] = true
			}
		}
		check := func(f Family, a string) {
			checkExcluded(t, ix, c.class, f, a, isListed[[2]string{string(f), a}])
		}
		for f, as := range c.listed {
			for _, a := range as {
				check(f, a)
				if f == EVM {
					check(f, neighbourEVM(t, a, -1))
					check(f, neighbourEVM(t, a, +1))
				}
			}
		}
		r := rand.New(rand.NewPCG(1, 2))
		for range 2000 {
			var b [20]byte
			for i := range b {
				b[i] = byte(r.Uint32())
			}
			check(EVM, fmt.Sprintf("0x%x", b))
		}
		check(EVM, "0x0000000000000000000000000000000000000000")
		check(EVM, "0xffffffffffffffffffffffffffffffffffffffff")
		check(Bitcoin, "1111111111111111111114oLvT2")
		check(Bitcoin, "bc1qzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzzz")
		for _, f := range Families() {
			if len(c.listed[f]) == 0 {
				g := checkExcluded(t, ix, c.class, f, "any", false)
				if g.Low != "" || g.High != "" {
					t.Fatalf("%s has no listed address but the gap (%q, %q)", f, g.Low, g.High)
				}
			}
		}
		// A string that is not a canonical EVM address has no proof.
		if g, ok := ix.ExclusionProof(c.class, EVM, "0x00000000000000000000000000000000000000AB"); ok {
			t.Fatalf("a non-canonical EVM string has a proof: %+v", g)
		}
		if _, ok := ix.ExclusionProof(c.class, Family("nope"), "x"); ok {
			t.Fatal("an unknown family has a proof")
		}
	}
	// The membership trees are the trees of before: (family, address)
	// leaves of each class.
	for class, listed := range map[string]map[Family][]string{ClassSanctions: sanctions, ClassCommunity: community} {
		var pairs [][2]string
		for f, as := range listed {
			for _, a := range as {
				pairs = append(pairs, [2]string{string(f), a})
			}
		}
		want, err := merkle.NewStrings2Tree(pairs, true)
		if err != nil {
			t.Fatal(err)
		}
		if got := ix.RootOf(class); got != want.Root() {
			t.Fatalf("%s membership root %s, want %s", class, got, want.Root())
		}
	}
}

// classIndex is the index of the addresses listed by a sanctions source
// (sanctions) and by community escalations (community).
func classIndex(t *testing.T, sanctions, community map[Family][]string) *Index {
	t.Helper()
	var ls []Listing
	for class, byFam := range map[string]map[Family][]string{SourceGovSDN: sanctions, SourceCommunity: community} {
		for f, as := range byFam {
			for i, a := range as {
				ls = append(ls, Listing{Family: f, Address: a, Match: Match{EntityID: fmt.Sprint(i), Source: class, Category: "sanctions", Severity: "critical"}})
			}
		}
	}
	ix, err := Build(1, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	return ix
}

// neighbourEVM is the EVM address one above (+1) or below (-1) a.
func neighbourEVM(t *testing.T, a string, d int) string {
	t.Helper()
	k, ok := evmKey(EVM, a)
	if !ok {
		t.Fatalf("%s is not canonical", a)
	}
	for i := len(k) - 1; i >= 0; i-- {
		old := k[i]
		k[i] += byte(d)
		if (d > 0 && k[i] > old) || (d < 0 && k[i] < old) {
			break
		}
	}
	return fmt.Sprintf("0x%x", k)
}

// TestExclusionExtremesListed: with the lowest and the highest EVM
// address listed, the gaps run ("", 0x00..00), (0x00..00, next), ...,
// (0xff..ff, ""); every address between has a proof, the two ends none.
func TestExclusionExtremesListed(t *testing.T) {
	lo, hi := "0x0000000000000000000000000000000000000000", "0xffffffffffffffffffffffffffffffffffffffff"
	mid := "0x8000000000000000000000000000000000000000"
	m := Match{Source: SourceGovSDN, Category: "sanctions", Severity: "critical"}
	ix, err := Build(1, time.Unix(0, 0), []Listing{{Family: EVM, Address: hi, Match: m}, {Family: EVM, Address: lo, Match: m}, {Family: EVM, Address: mid, Match: m}})
	if err != nil {
		t.Fatal(err)
	}
	if want := gapTree(t, referenceGaps(map[Family][]string{EVM: {lo, mid, hi}})).Root(); ix.ExclusionRoot() != want {
		t.Fatalf("root %s, want %s", ix.ExclusionRoot(), want)
	}
	for _, a := range []string{lo, mid, hi} {
		checkExcluded(t, ix, ClassSanctions, EVM, a, true)
	}
	g := checkExcluded(t, ix, ClassSanctions, EVM, "0x0000000000000000000000000000000000000001", false)
	if g.Low != lo || g.High != mid {
		t.Fatalf("gap of 0x..01: %+v", g)
	}
	g = checkExcluded(t, ix, ClassSanctions, EVM, "0xfffffffffffffffffffffffffffffffffffffffe", false)
	if g.Low != mid || g.High != hi {
		t.Fatalf("gap of 0xff..fe: %+v", g)
	}
	// Nothing is community-listed: one whole-range gap per family.
	g = checkExcluded(t, ix, ClassCommunity, EVM, lo, false)
	if g.Low != "" || g.High != "" {
		t.Fatalf("community gap of %s: %+v", lo, g)
	}
	if n, _ := ix.ExclusionLeaves(); n != 3+len(Families()) {
		t.Fatalf("%d sanctions exclusion leaves, want %d", n, 3+len(Families()))
	}
}

// TestExclusionMatchesFixtureGap: over the OFAC ETH list, the gap of the
// fixture's query has the two ends of the fixture's gap leaf (made with
// OpenZeppelin's merkle-tree over the same list).
func TestExclusionMatchesFixtureGap(t *testing.T) {
	raw, err := os.ReadFile(filepath.Join("testdata", "oz_linked_leaf_nonmembership_vector.json"))
	if err != nil {
		t.Fatal(err)
	}
	var v struct {
		Query   string    `json:"query"`
		LowLeaf [2]string `json:"low_leaf"`
		Count   int       `json:"count_leaves"`
	}
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatal(err)
	}
	var ls []Listing
	for _, a := range readFamily(t, "sanctioned_addresses_ETH.txt", EVM) {
		ls = append(ls, Listing{Family: EVM, Address: a, Match: Match{Source: SourceGovSDN}})
	}
	ix, err := Build(1, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	g := checkExcluded(t, ix, ClassSanctions, EVM, v.Query, false)
	if g.Low != v.LowLeaf[0] || g.High != v.LowLeaf[1] {
		t.Fatalf("gap (%s, %s), the fixture's (%s, %s)", g.Low, g.High, v.LowLeaf[0], v.LowLeaf[1])
	}
	// The fixture's tree has one leaf per gap of the list: ours has those
	// and one whole-range gap for each other family.
	if n, _ := ix.ExclusionLeaves(); n != v.Count+len(Families())-1 {
		t.Fatalf("%d leaves, want %d", n, v.Count+len(Families())-1)
	}
}

// TestExclusionMultiProof: the exclusion multiproof of a batch proves
// each distinct gap of its unlisted addresses once, with their values,
// and skips the listed ones.
func TestExclusionMultiProof(t *testing.T) {
	evm := readFamily(t, "sanctioned_addresses_ETH.txt", EVM)
	var ls []Listing
	for _, a := range evm {
		ls = append(ls, Listing{Family: EVM, Address: a, Match: Match{Source: SourceGovSDN}})
	}
	ix, err := Build(1, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	pairs := [][2]string{
		{"evm", evm[0]}, {"evm", neighbourEVM(t, evm[5], 1)}, {"evm", neighbourEVM(t, evm[5], 2)}, // one gap twice
		{"evm", "0x0000000000000000000000000000000000000000"}, {"bitcoin", "1BoatSLRHtKNngkdXEeobR76b53LETtpyT"},
		{"evm", neighbourEVM(t, evm[40], -1)},
	}
	mp, values, err := ix.ExclusionMultiProof(ClassSanctions, pairs)
	if err != nil {
		t.Fatal(err)
	}
	if len(values) != 4 || len(mp.Leaves) != 4 {
		t.Fatalf("%d values, %d leaves, want 4 distinct gaps", len(values), len(mp.Leaves))
	}
	vals := make([][]any, len(values))
	for i, v := range values {
		vals[i] = []any{v[0], v[1], v[2]}
		if mp.Leaves[i] != merkle.LeafHashStrings3(v[0], v[1], v[2]) {
			t.Fatalf("leaf %d is not the hash of %q", i, v)
		}
	}
	ok, err := merkle.VerifyStandardMultiProof(ix.ExclusionRoot(), ExclusionEncoding, vals, mp.Proof, mp.ProofFlags)
	if err != nil || !ok {
		t.Fatalf("the multiproof does not verify: %v", err)
	}
}

// TestExclusionTreeMatchesOpenZeppelin: the exclusion tree's root and a
// proof are those of StandardMerkleTree.of of npm @openzeppelin/merkle-tree
// 1.0.8 on the same gap values (node and screening/testdata/oz installed:
// npm ci there; CAIRN_REQUIRE_EVM=1, as in CI, fails instead of skipping).
func TestExclusionTreeMatchesOpenZeppelin(t *testing.T) {
	dir := filepath.Join("testdata", "oz")
	node := testenv.Node(t, filepath.Join(dir, "node_modules", "@openzeppelin", "merkle-tree", "package.json"), "npm ci in screening/testdata/oz")
	listed := map[Family][]string{
		EVM:     readFamily(t, "sanctioned_addresses_ETH.txt", EVM),
		Bitcoin: readFamily(t, "sanctioned_addresses_XBT.txt", Bitcoin),
		Monero:  readFamily(t, "sanctioned_addresses_XMR.txt", Monero),
	}
	var ls []Listing
	for f, as := range listed {
		for _, a := range as {
			ls = append(ls, Listing{Family: f, Address: a, Match: Match{Source: SourceGovSDN}})
		}
	}
	ix, err := Build(1, time.Unix(0, 0), ls)
	if err != nil {
		t.Fatal(err)
	}
	gaps := referenceGaps(listed)
	query := "0x1111111111111111111111111111111111111111"
	g := checkExcluded(t, ix, ClassSanctions, EVM, query, false)
	at := slices.Index(gaps, [3]string{"evm", g.Low, g.High})
	in, err := json.Marshal(map[string]any{"encoding": ExclusionEncoding, "values": gaps, "prove": []int{at}})
	if err != nil {
		t.Fatal(err)
	}
	cmd := exec.Command(node, "of.js")
	cmd.Dir, cmd.Stdin = dir, bytes.NewReader(in)
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("of.js: %v", err)
	}
	var oz struct {
		Root   merkle.Hash     `json:"root"`
		Proofs [][]merkle.Hash `json:"proofs"`
	}
	if err := json.Unmarshal(out, &oz); err != nil {
		t.Fatalf("%v: %s", err, out)
	}
	if oz.Root != ix.ExclusionRoot() {
		t.Fatalf("root %s, OpenZeppelin's %s", ix.ExclusionRoot(), oz.Root)
	}
	if !slices.Equal(oz.Proofs[0], g.Proof) {
		t.Fatalf("proof of %s differs from OpenZeppelin's", query)
	}
}

// TestHolderRetains: with Retain, a Swap keeps the index it replaced
// (Version answers for both), a renumbered index of the same listings
// keeps nothing more, and Release lets go of what is older than the
// version the chain holds; without Retain nothing is kept.
func TestHolderRetains(t *testing.T) {
	m := Match{Source: SourceGovSDN}
	v := func(n uint64, addrs ...string) *Index {
		var ls []Listing
		for _, a := range addrs {
			ls = append(ls, Listing{Family: EVM, Address: a, Match: m})
		}
		ix, err := Build(n, time.Unix(int64(n), 0), ls)
		if err != nil {
			t.Fatal(err)
		}
		return ix
	}
	a, b := "0x00000000000000000000000000000000000000aa", "0x00000000000000000000000000000000000000bb"
	var plain Holder
	plain.Swap(v(1, a))
	plain.Swap(v(2, b))
	if _, ok := plain.Version(1); ok || !slices.Equal(plain.Held(), []uint64{2}) {
		t.Fatal("a holder without Retain kept version 1")
	}
	var h Holder
	h.Retain()
	h.Swap(v(1, a))
	v2 := v(2, a, b)
	h.Swap(v2)
	if ix, ok := h.Version(1); !ok || ix.Version != 1 || ix.Root() == v2.Root() {
		t.Fatalf("version 1 not kept: %v", ok)
	}
	if !slices.Equal(h.Held(), []uint64{2, 1}) {
		t.Fatalf("held %v", h.Held())
	}
	h.Swap(v2.Renumbered(3, time.Unix(3, 0)))
	if _, ok := h.Version(1); !ok {
		t.Fatal("a renumbered version let version 1 go")
	}
	if _, ok := h.Version(2); ok {
		t.Fatal("version 2 answers although only its renumbered copy is current")
	}
	h.Release(1)
	if _, ok := h.Version(1); !ok {
		t.Fatal("Release(1) let version 1 go")
	}
	h.Release(3)
	if _, ok := h.Version(1); ok || !slices.Equal(h.Held(), []uint64{3}) {
		t.Fatalf("Release(3) kept version 1: held %v", h.Held())
	}
}
