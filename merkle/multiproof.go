package merkle

import (
	"math/bits"
	"slices"

	"github.com/cairn-dev/cairn"
)

// MultiProof proves several leaves at once, in the shape of OpenZeppelin's
// getMultiProof and MerkleProof.sol's multiProofVerify: Leaves in
// descending tree-index order, the Proof hashes, and one flag per hashing
// step (true: combine two values from the working queue; false: combine
// one with the next Proof hash).
type MultiProof struct {
	Leaves     []Hash `json:"leaves"`
	Proof      []Hash `json:"proof"`
	ProofFlags []bool `json:"proofFlags"`
	// Indices holds the value index of each of Leaves, in the same order
	// (not part of the proof; it tells the caller which values to send).
	Indices []int `json:"-"`
	// Nodes holds the tree index of each of Leaves, in the same order
	// (descending): with them, MultiProofWalk retraces the proof's steps.
	Nodes []int `json:"-"`
}

// MultiProofWalk retraces the steps of the multiproof of the leaves at
// the tree indices nodes (distinct, descending, as MultiProof.Nodes):
// step is called once per flag, with the tree index of the node the step
// combines and whether it is a flag true (the node is the sibling taken
// from the queue) or false (the node's hash is the next Proof hash). It
// returns false, having called step for a prefix of the steps at most,
// when nodes are not distinct and descending or are negative.
func MultiProofWalk(nodes []int, step func(sibling int, pair bool)) bool {
	for k, n := range nodes {
		if n < 0 || (k > 0 && n >= nodes[k-1]) {
			return false
		}
	}
	// The queue only ever holds tree indices in descending order: parents
	// of consumed nodes are pushed at the back and are smaller. Each step
	// takes one or two nodes and puts back one, so it never holds more
	// than the leaves: a ring of that size (on the stack for a batch).
	var small [128]int
	ring := small[:]
	if len(nodes) > len(small) {
		ring = make([]int, len(nodes))
	}
	ring = ring[:copy(ring, nodes)]
	head, live := 0, len(ring)
	for live > 0 && ring[head] > 0 {
		j := ring[head]
		head, live = next(head, len(ring)), live-1
		s := sibling(j)
		pair := live > 0 && ring[head] == s
		if pair {
			head, live = next(head, len(ring)), live-1
		}
		step(s, pair)
		tail := head + live
		if tail >= len(ring) {
			tail -= len(ring)
		}
		ring[tail] = (j - 1) / 2
		live++
	}
	return true
}

// next is the position after i in a ring of n.
func next(i, n int) int {
	if i++; i == n {
		return 0
	}
	return i
}

// Top returns the hashes of the first n nodes of the tree in its flat
// layout (all of them when it has fewer): the root, then each level in
// turn. The caller must not change them.
func (t *Tree) Top(n int) []Hash { return t.nodes[:min(n, len(t.nodes)):min(n, len(t.nodes))] }

// MultiProof returns the multiproof of the leaves with the given value
// indices, in any order. Duplicates are EINVALID, as in OpenZeppelin. No
// indices gives the proof [root] with no leaves and no flags.
func (t *Tree) MultiProof(indices []int) (MultiProof, error) { return t.MultiProofBelow(indices, 0) }

// MultiProofBelow is MultiProof with only those of the proof hashes that
// are of nodes at tree index top or beyond, in their order: for a caller
// that has the tree's first top nodes (Top) from elsewhere, which need
// not be gathered from the tree (at a million leaves, all but the
// leaves' own level: nodes far apart in memory). Its flags, leaves and
// nodes are MultiProof's; with top > 0 it does not verify by itself.
// With no indices, the proof is [root] whatever top is.
func (t *Tree) MultiProofBelow(indices []int, top int) (MultiProof, error) {
	tis := make([]int, len(indices))
	for k, i := range indices {
		if i < 0 || i >= len(t.tidx) {
			return MultiProof{}, errIndex(i, len(t.tidx))
		}
		tis[k] = int(t.tidx[i])
	}
	slices.SortFunc(tis, func(a, b int) int { return b - a })
	for k := 1; k < len(tis); k++ {
		if tis[k] == tis[k-1] {
			return MultiProof{}, cairn.Errorf(cairn.EINVALID, "merkle: cannot prove a duplicated leaf index")
		}
	}
	mp := MultiProof{
		Leaves:     make([]Hash, len(tis)),
		Indices:    make([]int, len(tis)),
		Nodes:      tis,
		Proof:      make([]Hash, 0, max(maxSteps(len(t.nodes), len(tis), top), 1)),
		ProofFlags: make([]bool, 0, maxSteps(len(t.nodes), len(tis), 0)),
	}
	for k, ti := range tis {
		mp.Leaves[k] = t.nodes[ti]
		mp.Indices[k] = int(t.vidx[2*len(t.tidx)-2-ti])
	}
	MultiProofWalk(tis, func(s int, pair bool) {
		mp.ProofFlags = append(mp.ProofFlags, pair)
		if !pair && s >= top {
			mp.Proof = append(mp.Proof, t.nodes[s])
		}
	})
	if len(tis) == 0 {
		mp.Proof = append(mp.Proof, t.nodes[0])
	}
	return mp, nil
}

// maxSteps bounds the steps of a multiproof of k leaves of a tree of n
// nodes, and so its proof hashes, counting only the steps whose sibling
// is at tree index top or beyond: one step per parent of a proven node,
// all on the levels above the deepest leaves, and level l (the root's is
// 0, its nodes at tree indices 2^l-1 to 2^(l+1)-2) holds at most
// min(k, 2^l) of them, the siblings on the level below.
func maxSteps(n, k, top int) int {
	steps := 0
	for l := range bits.Len(uint(n)) - 1 {
		if 1<<(l+2)-2 >= top { // the level below has a node at top or beyond
			steps += min(k, 1<<l)
		}
	}
	return steps
}

// ProcessMultiProof returns the root a multiproof implies, with
// OpenZeppelin's checks: EINVALID when the proof has fewer hashes than
// false flags, when leaves+proof != flags+1, or when the steps run out of
// values or leave more than one.
func ProcessMultiProof(mp MultiProof) (Hash, error) {
	falses := 0
	for _, f := range mp.ProofFlags {
		if !f {
			falses++
		}
	}
	if len(mp.Proof) < falses {
		return Hash{}, cairn.Errorf(cairn.EINVALID, "merkle: invalid multiproof format")
	}
	if len(mp.Leaves)+len(mp.Proof) != len(mp.ProofFlags)+1 {
		return Hash{}, cairn.Errorf(cairn.EINVALID, "merkle: leaves and multiproof are not compatible")
	}
	queue := make([]Hash, len(mp.Leaves), len(mp.Leaves)+len(mp.ProofFlags))
	copy(queue, mp.Leaves)
	head, pi := 0, 0
	broken := cairn.Errorf(cairn.EINVALID, "merkle: broken multiproof")
	k := hasherPool.Get().(*hasher)
	defer hasherPool.Put(k)
	for _, flag := range mp.ProofFlags {
		if head >= len(queue) {
			return Hash{}, broken
		}
		a := &queue[head]
		head++
		var b *Hash
		if flag {
			if head >= len(queue) {
				return Hash{}, broken
			}
			b = &queue[head]
			head++
		} else {
			b = &mp.Proof[pi]
			pi++
		}
		queue = append(queue, k.pair(a, b))
	}
	rest := len(queue) - head
	if rest+len(mp.Proof)-pi != 1 {
		return Hash{}, broken
	}
	if rest == 1 {
		return queue[len(queue)-1], nil
	}
	return mp.Proof[pi], nil
}

// VerifyMultiProof reports whether mp proves its leaves under root. A
// malformed multiproof does not verify.
func VerifyMultiProof(root Hash, mp MultiProof) bool {
	r, err := ProcessMultiProof(mp)
	return err == nil && r == root
}
