package screening

import (
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/merkle"
)

// Proof returns the leaf hash and Merkle proof of a listed address, and
// false when it is not listed.
func (ix *Index) Proof(f Family, canonical string) (merkle.Hash, []merkle.Hash, bool) {
	if ix.tree == nil {
		return merkle.Hash{}, nil, false
	}
	e, ok := ix.entries[entryKey{f, canonical}]
	if !ok {
		return merkle.Hash{}, nil, false
	}
	t := ix.tree.Tree()
	leaf, err := t.Leaf(int(e.leaf))
	if err != nil {
		return merkle.Hash{}, nil, false
	}
	proof, err := t.Proof(int(e.leaf))
	if err != nil {
		return merkle.Hash{}, nil, false
	}
	return leaf, proof, true
}

// Holder holds the current index; Swap replaces it atomically and Current
// never blocks.
type Holder struct{ p atomic.Pointer[Index] }

// Current returns the current index, or an empty one before the first Swap.
func (h *Holder) Current() *Index {
	if ix := h.p.Load(); ix != nil {
		return ix
	}
	return emptyIndex
}

// Swap installs ix.
func (h *Holder) Swap(ix *Index) { h.p.Store(ix) }

var emptyIndex, _ = Build(0, time.Time{}, nil)

// MultiProof returns the OpenZeppelin multiproof of the listed (family,
// canonical) pairs, each at most once, with the values in the order of the
// proof's leaves. Pairs that are not listed are skipped.
func (ix *Index) MultiProof(pairs [][2]string) (merkle.MultiProof, [][2]string, error) {
	if ix.tree == nil {
		return merkle.MultiProof{Leaves: []merkle.Hash{}, Proof: []merkle.Hash{}, ProofFlags: []bool{}}, [][2]string{}, nil
	}
	seen := map[int]bool{}
	var idx []int
	for _, p := range pairs {
		e, ok := ix.entries[entryKey{Family(p[0]), p[1]}]
		if !ok {
			continue
		}
		if i := int(e.leaf); !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	mp, err := ix.tree.MultiProof(idx)
	if err != nil {
		return merkle.MultiProof{}, nil, err
	}
	values := make([][2]string, len(mp.Indices))
	for k, i := range mp.Indices {
		v := ix.tree.Value(i)
		values[k] = [2]string{v[0].(string), v[1].(string)}
	}
	return mp, values, nil
}
