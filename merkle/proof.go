package merkle

import "math/bits"

// Proof returns the proof of the leaf with value index i: the sibling of
// each node on the path from the leaf up to (not including) the root, as
// OpenZeppelin's getProof. A single-leaf tree has the empty proof.
func (t *Tree) Proof(i int) ([]Hash, error) {
	if i < 0 || i >= len(t.tidx) {
		return nil, errIndex(i, len(t.tidx))
	}
	ti := int(t.tidx[i])
	return t.appendPath(make([]Hash, 0, bits.Len(uint(ti+1))-1), ti), nil
}

// AppendProof appends the proof of the leaf with value index i to dst and
// returns the extended slice; with a dst of capacity 32 it does not allocate.
func (t *Tree) AppendProof(dst []Hash, i int) ([]Hash, error) {
	if i < 0 || i >= len(t.tidx) {
		return dst, errIndex(i, len(t.tidx))
	}
	return t.appendPath(dst, int(t.tidx[i])), nil
}

// ProofOf returns the value index and the proof of the leaf with hash h,
// or ENOTFOUND when no leaf has that hash.
func (t *Tree) ProofOf(h Hash) (int, []Hash, error) {
	i, ok := t.LeafIndex(h)
	if !ok {
		return 0, nil, errUnknownLeaf(h)
	}
	p, err := t.Proof(i)
	return i, p, err
}

func (t *Tree) appendPath(dst []Hash, ti int) []Hash {
	for ti > 0 {
		dst = append(dst, t.nodes[sibling(ti)])
		ti = (ti - 1) / 2
	}
	return dst
}

// sibling of node i > 0: the other child of its parent.
func sibling(i int) int {
	if i%2 == 1 {
		return i + 1
	}
	return i - 1
}

// ProcessProof folds a proof into the root it implies for leaf, as
// OpenZeppelin's processProof and MerkleProof.sol's processProof.
func ProcessProof(leaf Hash, proof []Hash) Hash {
	k := hasherPool.Get().(*hasher)
	for i := range proof {
		leaf = k.pair(&leaf, &proof[i])
	}
	hasherPool.Put(k)
	return leaf
}

// Verify reports whether proof proves leaf under root.
func Verify(root, leaf Hash, proof []Hash) bool {
	return ProcessProof(leaf, proof) == root
}
