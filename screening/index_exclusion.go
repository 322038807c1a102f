package screening

import (
	"encoding/hex"
	"slices"

	"github.com/cairn-dev/cairn/merkle"
)

// An exclusion tree proves that an address is not listed. Its leaves are
// the gaps between consecutive listed addresses of one class, per family:
// OpenZeppelin StandardMerkleTree leaves of the encoding
// ["string","string","string"], the value (family, low, high) where low
// and high are consecutive canonical addresses of the family in byte
// order (for EVM, "0x" and 40 lower-case hex digits: byte order is the
// order of the numbers), or "" at an open end: low "" lies below every
// address and high "" above every address. A family with the listed
// addresses a1 < ... < an has the n+1 gaps ("", a1), (a1, a2), ...,
// (an, ""); a family with none has the one gap ("", ""). Every family
// cairn knows has its gaps, so every unlisted address of every family has
// exactly one gap around it: x is not listed when a leaf (family, low,
// high) is in the tree and (low == "" or low < x) and (high == "" or
// x < high), compared byte by byte.
//
// The leaves are sorted by hash as StandardMerkleTree.of sorts them; a
// gap's value index is its position in the families' order (Families),
// then in address order.
type exclusion struct {
	tree *merkle.Tree
	fams []gapFamily // in families order
}

// ExclusionEncoding is the leaf encoding of the exclusion trees: (family,
// low, high).
var ExclusionEncoding = merkle.Strings3

// gapFamily is the listed addresses of one family in one class, sorted:
// gap k lies between addresses k-1 and k, and has the value index
// first+k.
type gapFamily struct {
	f     Family
	first int
	// EVM: the positions of the class's slots in the EVM table
	// (ascending: the table is sorted), nil when every slot is of the
	// class (the common case: 4 bytes per address saved); n their number.
	evm   []int32
	n     int
	other []string // other families: the canonical addresses, ascending
}

func (g *gapFamily) len() int {
	if g.f == EVM {
		return g.n
	}
	return len(g.other)
}

// slot is the table position of the family's EVM address k.
func (g *gapFamily) slot(k int) int {
	if g.evm == nil {
		return k
	}
	return int(g.evm[k])
}

// appendAddress appends listed address k of the family to dst.
func (g *gapFamily) appendAddress(dst []byte, k int, t *evmTable) []byte {
	if g.f == EVM {
		dst = append(dst, '0', 'x')
		return hex.AppendEncode(dst, t.slots[g.slot(k)].k[:])
	}
	return append(dst, g.other[k]...)
}

// bounds appends the low and the high end of gap k to dst: "" at an open
// end.
func (g *gapFamily) bounds(dst []byte, k int, t *evmTable) (low, high []byte) {
	low = dst[:0]
	if k > 0 {
		low = g.appendAddress(low, k-1, t)
	}
	high = low[len(low):]
	if k < g.len() {
		high = g.appendAddress(high, k, t)
	}
	return low, high
}

// search returns the number of the family's listed addresses below
// canonical and whether canonical is one of them. ok is false for a
// string that is not a canonical EVM address in the EVM family (the
// exclusion tree says nothing of it).
func (g *gapFamily) search(canonical string, t *evmTable) (k int, listed, ok bool) {
	if g.f != EVM {
		k, listed = slices.BinarySearch(g.other, canonical)
		return k, listed, true
	}
	key, isEVM := evmKey(EVM, canonical)
	if !isEVM {
		return 0, false, false
	}
	if g.n == 0 {
		// The class lists no EVM address (the community class, often):
		// the one gap ("", "") holds every address, no lookup needed.
		return 0, false, true
	}
	// The table's position of the address, then the class's.
	q := t.lowerBound(&key)
	k, listed = g.at(q, q < len(t.slots) && t.slots[q].k == key)
	return k, listed, true
}

// at is search of the EVM address with q of the table's addresses below
// it, inTable when it is the table's address q: the class's slots are a
// subset of the table's, in the same order (all of them when every EVM
// address is of the class, the common case). The class lists an EVM
// address (g.n > 0).
func (g *gapFamily) at(q int, inTable bool) (k int, listed bool) {
	if g.evm == nil {
		return q, inTable
	}
	k, found := slices.BinarySearch(g.evm, int32(q))
	return k, inTable && found
}

// buildExclusion builds the exclusion tree of class over the index's
// entries.
func (ix *Index) buildExclusion(class string) (*exclusion, error) {
	inClass := func(e entry) bool { return e.leaf >= 0 }
	if class == ClassCommunity {
		inClass = func(e entry) bool { return e.cleaf >= 0 }
	}
	x := &exclusion{fams: make([]gapFamily, len(families))}
	pos := make(map[Family]int, len(families))
	for i, f := range families {
		x.fams[i].f, pos[f] = f, i
	}
	t := &ix.entries.evm
	evm := &x.fams[pos[EVM]]
	n := 0
	for p := range t.slots {
		if inClass(t.slots[p].e) {
			n++
		}
	}
	evm.n = n
	if n < len(t.slots) {
		evm.evm = make([]int32, 0, n)
		for p := range t.slots {
			if inClass(t.slots[p].e) {
				evm.evm = append(evm.evm, int32(p))
			}
		}
	}
	for k, e := range ix.entries.other {
		if !inClass(e) {
			continue
		}
		i, known := pos[k.f]
		if !known || k.f == EVM {
			// An EVM-family string outside the table is not a canonical
			// address (ingestion lists none), and a family cairn does not
			// know has no gaps: no address of the tree's families is
			// either, so the gaps say nothing of them.
			continue
		}
		x.fams[i].other = append(x.fams[i].other, k.addr)
	}
	n = 0
	for i := range x.fams {
		slices.Sort(x.fams[i].other)
		x.fams[i].first = n
		n += x.fams[i].len() + 1
	}
	var err error
	if x.tree, err = merkle.BuildStrings3Func(n, func(v int, scratch []byte) (string, []byte, []byte) {
		g, k := x.gap(v)
		low, high := g.bounds(scratch, k, t)
		return string(g.f), low, high
	}); err != nil {
		return nil, err
	}
	return x, nil
}

// gap returns the family and the gap number of value index v.
func (x *exclusion) gap(v int) (*gapFamily, int) {
	i := len(x.fams) - 1
	for i > 0 && x.fams[i].first > v {
		i--
	}
	return &x.fams[i], v - x.fams[i].first
}

// family returns the gaps of f, nil for a family the tree does not know.
func (x *exclusion) family(f Family) *gapFamily {
	for i := range x.fams {
		if x.fams[i].f == f {
			return &x.fams[i]
		}
	}
	return nil
}

// Gap is the exclusion proof of one address: the leaf (Family, Low, High)
// of the exclusion tree whose gap holds the address, and its Merkle proof.
type Gap struct {
	Family    Family
	Low, High string // "" at an open end
	Leaf      merkle.Hash
	Proof     []merkle.Hash
}

// ExclusionRoot is the root of the sanctions exclusion tree.
func (ix *Index) ExclusionRoot() merkle.Hash { return ix.exclusion.tree.Root() }

// CommunityExclusionRoot is the root of the community exclusion tree.
func (ix *Index) CommunityExclusionRoot() merkle.Hash { return ix.cexclusion.tree.Root() }

// ExclusionRootOf returns the root of the exclusion tree of class.
func (ix *Index) ExclusionRootOf(class string) merkle.Hash { return ix.exclusionOf(class).tree.Root() }

// ExclusionLeaves returns the number of leaves of the sanctions and the
// community exclusion tree.
func (ix *Index) ExclusionLeaves() (sanctions, community int) {
	return ix.exclusion.tree.Len(), ix.cexclusion.tree.Len()
}

func (ix *Index) exclusionOf(class string) *exclusion {
	if class == ClassCommunity {
		return ix.cexclusion
	}
	return ix.exclusion
}

// gapIndex returns the value index of the gap of a canonical address in
// the exclusion tree of class, false when the address is in the class's
// tree (or is no canonical address of a known family).
func (ix *Index) gapIndex(x *exclusion, f Family, canonical string) (int, bool) {
	g := x.family(f)
	if g == nil || canonical == "" {
		return 0, false
	}
	k, listed, ok := g.search(canonical, &ix.entries.evm)
	if listed || !ok {
		return 0, false
	}
	return g.first + k, true
}

// gapValue returns the (family, low, high) value of gap v.
func (ix *Index) gapValue(x *exclusion, v int) [3]string {
	g, k := x.gap(v)
	var buf [128]byte
	low, high := g.bounds(buf[:0], k, &ix.entries.evm)
	return [3]string{string(g.f), string(low), string(high)}
}

// ExclusionProof returns the exclusion proof of a canonical address in
// the exclusion tree of class (ClassSanctions or ClassCommunity), and
// false when the address is in the class's tree.
func (ix *Index) ExclusionProof(class string, f Family, canonical string) (Gap, bool) {
	x := ix.exclusionOf(class)
	v, ok := ix.gapIndex(x, f, canonical)
	if !ok {
		return Gap{}, false
	}
	leaf, err := x.tree.Leaf(v)
	if err != nil {
		return Gap{}, false
	}
	proof, err := x.tree.Proof(v)
	if err != nil {
		return Gap{}, false
	}
	if proof == nil {
		proof = []merkle.Hash{}
	}
	val := ix.gapValue(x, v)
	return Gap{Family: f, Low: val[1], High: val[2], Leaf: leaf, Proof: proof}, true
}

// ExclusionMultiProof returns the OpenZeppelin multiproof of the gaps of
// the (family, canonical) pairs in the exclusion tree of class, each gap
// at most once, with the (family, low, high) values in the order of the
// proof's leaves. Pairs in the class's tree are skipped.
func (ix *Index) ExclusionMultiProof(class string, pairs [][2]string) (merkle.MultiProof, [][3]string, error) {
	return ix.ExclusionMultiProofBelow(class, pairs, 0)
}

// ExclusionMultiProofBelow is ExclusionMultiProof with only the proof
// hashes of nodes at tree index top or beyond
// (merkle.Tree.MultiProofBelow), for a caller that has the exclusion
// tree's Top(top) from elsewhere.
func (ix *Index) ExclusionMultiProofBelow(class string, pairs [][2]string, top int) (merkle.MultiProof, [][3]string, error) {
	x := ix.exclusionOf(class)
	idx := make([]int, 0, len(pairs))
	for _, p := range pairs {
		if v, ok := ix.gapIndex(x, Family(p[0]), p[1]); ok {
			idx = append(idx, v)
		}
	}
	return ix.exclusionMultiProof(x, idx, top)
}
