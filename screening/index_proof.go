package screening

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/cairn-dev/cairn/merkle"
)

// Proof returns the leaf hash and Merkle proof of an address in the
// sanctions tree, and false when no sanctions source lists it.
func (ix *Index) Proof(f Family, canonical string) (merkle.Hash, []merkle.Hash, bool) {
	return ix.ProofIn(ClassSanctions, f, canonical)
}

// ProofIn returns the leaf hash and Merkle proof of an address in the
// tree of class (ClassSanctions or ClassCommunity), and false when the
// address is not a leaf of it.
func (ix *Index) ProofIn(class string, f Family, canonical string) (merkle.Hash, []merkle.Hash, bool) {
	e, _ := ix.entries.get(f, canonical)
	t, _, i := ix.treeOf(class, e)
	if t == nil || i < 0 {
		return merkle.Hash{}, nil, false
	}
	leaf, err := t.Leaf(i)
	if err != nil {
		return merkle.Hash{}, nil, false
	}
	proof, err := t.Proof(i)
	if err != nil {
		return merkle.Hash{}, nil, false
	}
	return leaf, proof, true
}

// ClassOf returns the class of a listed address: ClassSanctions when a
// sanctions source lists it (community reports or not), ClassCommunity
// when only community escalations do, "" when it is not listed.
func (ix *Index) ClassOf(f Family, canonical string) string {
	e, ok := ix.entries.get(f, canonical)
	switch {
	case !ok:
		return ""
	case e.leaf >= 0:
		return ClassSanctions
	case e.cleaf >= 0:
		return ClassCommunity
	}
	return ""
}

// RootOf returns the root of the tree of class.
func (ix *Index) RootOf(class string) merkle.Hash {
	if class == ClassCommunity {
		return ix.CommunityRoot()
	}
	return ix.Root()
}

// treeOf returns the tree of class, its leaf values and the value index
// of e's leaf in it (-1: none; noEntry is in no tree).
func (ix *Index) treeOf(class string, e entry) (*merkle.Tree, *leafValues, int) {
	if class == ClassCommunity {
		return ix.community, &ix.cvalues, int(e.cleaf)
	}
	return ix.tree, &ix.values, int(e.leaf)
}

// Holder holds the current index; Swap replaces it atomically and Current
// never blocks. With Retain, it also keeps the index a Swap replaced, so
// that proofs can still be given against a version the chain holds while
// a newer one is being anchored (Version), until Release says that
// version is no longer needed.
type Holder struct {
	p atomic.Pointer[Index]

	mu     sync.Mutex
	retain bool
	prev   *Index // the index the last Swap replaced, while retained
}

// Current returns the current index, or an empty one before the first Swap.
func (h *Holder) Current() *Index {
	if ix := h.p.Load(); ix != nil {
		return ix
	}
	return emptyIndex
}

// Swap installs ix. With Retain, the index it replaces is kept (the one
// kept before is let go), unless ix is the same list version renumbered.
func (h *Holder) Swap(ix *Index) {
	h.mu.Lock()
	defer h.mu.Unlock()
	old := h.p.Swap(ix)
	if h.retain && old != nil && !old.SharesEntries(ix) && old.Version < ix.Version {
		h.prev = old
	}
}

// Retain makes Swap keep the index it replaces.
func (h *Holder) Retain() {
	h.mu.Lock()
	h.retain = true
	h.mu.Unlock()
}

// Release lets go of a kept index older than version: once the chain
// holds version (or a newer one), no proof is asked against an older one.
func (h *Holder) Release(version uint64) {
	h.mu.Lock()
	if h.prev != nil && h.prev.Version < version {
		h.prev = nil
	}
	h.mu.Unlock()
}

// Version returns the index of list version v: the current one, or the
// one kept (Retain), and false when neither is v. A renumbered index
// answers for both its versions only as the current one.
func (h *Holder) Version(v uint64) (*Index, bool) {
	if ix := h.Current(); ix.Version == v {
		return ix, true
	}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prev != nil && h.prev.Version == v {
		return h.prev, true
	}
	return nil, false
}

// Held returns the list versions Version answers for, newest first.
func (h *Holder) Held() []uint64 {
	out := []uint64{h.Current().Version}
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.prev != nil && h.prev.Version != out[0] {
		out = append(out, h.prev.Version)
	}
	return out
}

var emptyIndex, _ = Build(0, time.Time{}, nil)

// MultiProof returns the OpenZeppelin multiproof of the (family,
// canonical) pairs in the sanctions tree, each at most once, with the
// values in the order of the proof's leaves. Pairs that are not in it are
// skipped.
func (ix *Index) MultiProof(pairs [][2]string) (merkle.MultiProof, [][2]string, error) {
	return ix.MultiProofIn(ClassSanctions, pairs)
}

// MultiProofIn is MultiProof in the tree of class.
func (ix *Index) MultiProofIn(class string, pairs [][2]string) (merkle.MultiProof, [][2]string, error) {
	return ix.MultiProofInBelow(class, pairs, 0)
}

// MultiProofInBelow is MultiProofIn with only the proof hashes of nodes at
// tree index top or beyond (merkle.Tree.MultiProofBelow), for a caller
// that has the tree's Top(top) from elsewhere.
func (ix *Index) MultiProofInBelow(class string, pairs [][2]string, top int) (merkle.MultiProof, [][2]string, error) {
	t, vals, _ := ix.treeOf(class, noEntry)
	if t == nil {
		return merkle.MultiProof{Leaves: []merkle.Hash{}, Proof: []merkle.Hash{}, ProofFlags: []bool{}}, [][2]string{}, nil
	}
	seen := map[int]bool{}
	var idx []int
	for _, p := range pairs {
		e, ok := ix.entries.get(Family(p[0]), p[1])
		if !ok {
			continue
		}
		if _, _, i := ix.treeOf(class, e); i >= 0 && !seen[i] {
			seen[i] = true
			idx = append(idx, i)
		}
	}
	mp, err := t.MultiProofBelow(idx, top)
	if err != nil {
		return merkle.MultiProof{}, nil, err
	}
	return mp, ix.leafValues(vals, mp.Indices), nil
}

// Top returns the hashes of the first n nodes of the tree of class in its
// flat layout (of its exclusion tree with exclusion), all of them when it
// has fewer, nil when the class has no tree. They are the tree's own: the
// caller must not change them.
func (ix *Index) Top(class string, exclusion bool, n int) []merkle.Hash {
	t, _, _ := ix.treeOf(class, noEntry)
	if exclusion {
		t = ix.exclusionOf(class).tree
	}
	if t == nil {
		return nil
	}
	return t.Top(n)
}
