package merkle

import (
	"math"
	"slices"
	"sync"

	"github.com/cairn-dev/cairn"
)

// Tree is an immutable Merkle tree in OpenZeppelin's flat layout. Leaves
// are addressed by their value index: the position of the leaf in the slice
// given to Build, which is also the position of the value in a dump's
// "values". A Tree is safe for concurrent use.
type Tree struct {
	nodes  []Hash  // 2n-1 nodes; nodes[0] is the root; the last n are the leaves
	tidx   []int32 // value index -> tree index
	vidx   []int32 // leaf position k (tree index 2n-2-k) -> value index
	sorted bool    // leaf positions ascend by hash: LeafIndex is a binary search
	prefix []int32 // sorted trees of prefixMin leaves or more: first position of each 2-byte prefix

	lookupOnce sync.Once
	lookup     map[Hash]int32 // unsorted trees only, built on first LeafIndex
}

// MaxLeaves bounds the number of leaves (the layout's indices are int32).
const MaxLeaves = math.MaxInt32 / 2

// Build builds the tree over leaf hashes exactly as OpenZeppelin's
// makeMerkleTree does after prepare: with sortLeaves the leaves are ordered
// by hash (ties keep their input order, as JavaScript's stable sort does),
// then written to the end of the array in reverse, and every internal node
// i is HashPair(nodes[2i+1], nodes[2i+2]). Large trees are sorted and hashed
// on all CPUs. Build copies leaves; zero leaves is EINVALID.
func Build(leaves []Hash, sortLeaves bool) (*Tree, error) {
	n := len(leaves)
	t, _, err := newTree(n, sortLeaves)
	if err != nil {
		return nil, err
	}
	last := 2*n - 2
	if sortLeaves {
		// Sort straight into the leaf slots, then reverse them: leaf
		// position k lives at node last-k.
		sortByHash(t.nodes[n-1:], t.vidx, leaves)
		t.placeSorted()
	} else {
		for k := range leaves {
			t.nodes[last-k] = leaves[k]
			t.vidx[k] = int32(k)
			t.tidx[k] = int32(last - k)
		}
	}
	t.finish()
	return t, nil
}

// BuildSortedFunc is Build(leaves, true) over the n leaf hashes that fill
// writes, in value order, into the slice it is given: the slots of the
// tree's internal nodes, not hashed yet, and one slot allocated with them,
// from which they are sorted into the leaf slots. A large tree never holds
// its leaves in an array of their own.
func BuildSortedFunc(n int, fill func(leaves []Hash)) (*Tree, error) {
	t, area, err := newTree(n, true)
	if err != nil {
		return nil, err
	}
	fill(area)
	sortByHash(t.nodes[n-1:], t.vidx, area)
	t.placeSorted()
	t.finish()
	return t, nil
}

// newTree allocates a tree of n leaves. Its nodes are all of their array
// but the first slot: area, the first n slots of the array (that one and
// the internal nodes'), is free until the internal nodes are hashed.
func newTree(n int, sorted bool) (t *Tree, area []Hash, err error) {
	if n == 0 {
		return nil, nil, cairn.Errorf(cairn.EINVALID, "merkle: a tree needs at least one leaf")
	}
	if n > MaxLeaves {
		return nil, nil, cairn.Errorf(cairn.ETOOLARGE, "merkle: %d leaves exceed the limit of %d", n, MaxLeaves)
	}
	all := make([]Hash, 2*n)
	return &Tree{
		nodes:  all[1:],
		tidx:   make([]int32, n),
		vidx:   make([]int32, n),
		sorted: sorted,
	}, all[:n], nil
}

// placeSorted reverses the sorted leaf slots, so that leaf position k
// lives at node 2n-2-k, and indexes them by value.
func (t *Tree) placeSorted() {
	n := len(t.vidx)
	last := 2*n - 2
	slices.Reverse(t.nodes[n-1:])
	for k, v := range t.vidx {
		t.tidx[v] = int32(last - k)
	}
}

// finish hashes the internal nodes and indexes the leaves' prefixes.
func (t *Tree) finish() {
	hashInternal(t.nodes, len(t.tidx))
	t.indexPrefixes()
}

// Root returns the root: nodes[0].
func (t *Tree) Root() Hash { return t.nodes[0] }

// Len returns the number of leaves.
func (t *Tree) Len() int { return len(t.tidx) }

// Nodes returns the flat node array (2n-1 nodes, root first). It is shared:
// the caller must not modify it.
func (t *Tree) Nodes() []Hash { return t.nodes }

// Sorted reports whether the leaves were sorted by hash when built.
func (t *Tree) Sorted() bool { return t.sorted }

// TreeIndex returns the node index of the leaf with value index i.
func (t *Tree) TreeIndex(i int) (int, error) {
	if i < 0 || i >= len(t.tidx) {
		return 0, errIndex(i, len(t.tidx))
	}
	return int(t.tidx[i]), nil
}

// Leaf returns the leaf hash with value index i.
func (t *Tree) Leaf(i int) (Hash, error) {
	ti, err := t.TreeIndex(i)
	if err != nil {
		return Hash{}, err
	}
	return t.nodes[ti], nil
}

// LeafIndex returns the value index of the leaf with hash h. When several
// leaves share h it returns the last of them, as OpenZeppelin's leafLookup
// does. Sorted trees answer with a binary search over the leaf slots;
// unsorted ones build a map on first use.
func (t *Tree) LeafIndex(h Hash) (int, bool) {
	n := len(t.tidx)
	if t.sorted {
		// Leaf position k sits at node 2n-2-k, ascending in k: find the first
		// position whose hash is greater than h, then step back one.
		lo, hi := 0, n
		if t.prefix != nil {
			// Narrow the search to the leaves sharing h's first two bytes.
			b := int(h[0])<<8 | int(h[1])
			lo, hi = int(t.prefix[b]), int(t.prefix[b+1])
		}
		for lo < hi {
			m := int(uint(lo+hi) >> 1)
			if t.nodes[2*n-2-m].Compare(h) <= 0 {
				lo = m + 1
			} else {
				hi = m
			}
		}
		if lo == 0 || t.nodes[2*n-1-lo] != h {
			// lo is the first position past h; position lo-1 may belong to a
			// smaller prefix, which the comparison rejects.
			return 0, false
		}
		return int(t.vidx[lo-1]), true
	}
	t.lookupOnce.Do(func() {
		t.lookup = make(map[Hash]int32, n)
		for v, ti := range t.tidx {
			t.lookup[t.nodes[ti]] = int32(v)
		}
	})
	v, ok := t.lookup[h]
	return int(v), ok
}

// prefixMin is the size from which a sorted tree keeps a prefix table
// (256 KiB) to cut the binary search of LeafIndex to a few steps within a
// handful of adjacent leaves.
const prefixMin = 1 << 15

// indexPrefixes builds the prefix table of a sorted tree: prefix[b] is the
// first leaf position whose hash starts with the two bytes b.
func (t *Tree) indexPrefixes() {
	n := len(t.tidx)
	if !t.sorted || n < prefixMin {
		return
	}
	t.prefix = make([]int32, 1<<16+1)
	for k := range n {
		h := &t.nodes[2*n-2-k]
		t.prefix[(int(h[0])<<8|int(h[1]))+1]++
	}
	for b := 1; b < len(t.prefix); b++ {
		t.prefix[b] += t.prefix[b-1]
	}
}

func errIndex(i, n int) error {
	return cairn.Errorf(cairn.EINVALID, "merkle: leaf index %d out of range [0, %d)", i, n)
}

func errUnknownLeaf(h Hash) error {
	return cairn.Errorf(cairn.ENOTFOUND, "merkle: leaf %s is not in the tree", h)
}
