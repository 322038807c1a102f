package screening

import (
	"fmt"
	"slices"

	"github.com/cairn-dev/cairn/merkle"
)

// Located is where a screening found one valid address in its index
// (ScreenLocated): its entry, and for an EVM address the number of the
// EVM table's addresses below it, which is also where its gap is in each
// exclusion tree. A screening's multiproofs start from there
// (MultiProofAtBelow, ExclusionMultiProofAtBelow) instead of parsing and
// searching for each address again: at 1,000,000 addresses those
// searches were most of the multiproofs' time (BENCHMARKS.md). A Located
// is valid only with the index that made it.
type Located struct {
	Family    Family
	Canonical string
	e         entry
	pos       int32 // EVM key: the table's addresses below it; else -1
	found     bool  // listed (the key is in the table, or in other)
}

// locate finds a canonical address: as get, and for an EVM key its
// position in the table (found: the key at that position).
func (es *entries) locate(f Family, canonical string) Located {
	l := Located{Family: f, Canonical: canonical, e: noEntry, pos: -1}
	if k, isEVM := evmKey(f, canonical); isEVM {
		q := es.evm.lowerBound(&k)
		l.pos = int32(q)
		if q < len(es.evm.slots) && es.evm.slots[q].k == k {
			l.e, l.found = es.evm.slots[q].e, true
		}
		return l
	}
	if e, ok := es.other[entryKey{f, canonical}]; ok {
		l.e, l.found = e, true
	}
	return l
}

// MultiProofAtBelow is MultiProofInBelow of the located addresses: the
// same multiproof and values as of their (family, canonical) pairs.
func (ix *Index) MultiProofAtBelow(class string, at []Located, top int) (merkle.MultiProof, [][2]string, error) {
	t, vals, _ := ix.treeOf(class, noEntry)
	if t == nil {
		return merkle.MultiProof{Leaves: []merkle.Hash{}, Proof: []merkle.Hash{}, ProofFlags: []bool{}}, [][2]string{}, nil
	}
	idx := make([]int, 0, len(at))
	for k := range at {
		if _, _, i := ix.treeOf(class, at[k].e); i >= 0 {
			idx = append(idx, i)
		}
	}
	// An address screened twice is proved once; the multiproof does not
	// depend on the order of its indices.
	slices.Sort(idx)
	idx = slices.Compact(idx)
	mp, err := t.MultiProofBelow(idx, top)
	if err != nil {
		return merkle.MultiProof{}, nil, err
	}
	return mp, ix.leafValues(vals, mp.Indices), nil
}

// leafValues are the (family, address) values of the leaves with the
// given value indices.
func (ix *Index) leafValues(vals *leafValues, indices []int) [][2]string {
	values := make([][2]string, len(indices))
	for k, i := range indices {
		var buf [64]byte
		f, a := vals.value(i, &ix.entries.evm, buf[:0])
		values[k] = [2]string{string(f), string(a)}
	}
	return values
}

// ExclusionMultiProofAtBelow is ExclusionMultiProofBelow of the located
// addresses: the same multiproof and values as of their (family,
// canonical) pairs.
func (ix *Index) ExclusionMultiProofAtBelow(class string, at []Located, top int) (merkle.MultiProof, [][3]string, error) {
	x := ix.exclusionOf(class)
	idx := make([]int, 0, len(at))
	for k := range at {
		if v, ok := ix.gapIndexAt(x, &at[k]); ok {
			idx = append(idx, v)
		}
	}
	return ix.exclusionMultiProof(x, idx, top)
}

// exclusionMultiProof is the multiproof of the gaps with value indices
// idx (sorted and made distinct here) in x's tree, with their values.
func (ix *Index) exclusionMultiProof(x *exclusion, idx []int, top int) (merkle.MultiProof, [][3]string, error) {
	slices.Sort(idx)
	idx = slices.Compact(idx)
	mp, err := x.tree.MultiProofBelow(idx, top)
	if err != nil {
		return merkle.MultiProof{}, nil, fmt.Errorf("screening: exclusion multiproof: %w", err)
	}
	values := make([][3]string, len(mp.Indices))
	for k, v := range mp.Indices {
		values[k] = ix.gapValue(x, v)
	}
	return mp, values, nil
}

// gapIndexAt is gapIndex of a located address.
func (ix *Index) gapIndexAt(x *exclusion, l *Located) (int, bool) {
	g := x.family(l.Family)
	if g == nil || l.Canonical == "" {
		return 0, false
	}
	var k int
	var listed bool
	switch {
	case g.f != EVM:
		k, listed = slices.BinarySearch(g.other, l.Canonical)
	case l.pos < 0:
		return 0, false // not a canonical EVM address: no gap says anything of it
	case g.n == 0:
		// The class lists no EVM address: the one gap ("", "").
	default:
		k, listed = g.at(int(l.pos), l.found)
	}
	if listed {
		return 0, false
	}
	return g.first + k, true
}
