package merkle

import (
	"github.com/cairn-dev/cairn"
)

// fromNodes rebuilds a Tree from a dump's node array and the tree index of
// each value, checking what OpenZeppelin's validate checks (every internal
// node is the hash of its children) and, more strictly, that the values map
// one to one onto the leaf slots (every dump OpenZeppelin writes does).
func fromNodes(nodes []Hash, treeIndex []int) (*Tree, error) {
	n := len(treeIndex)
	if n == 0 || len(nodes) != 2*n-1 {
		return nil, cairn.Errorf(cairn.EINVALID, "merkle: %d nodes for %d values (want 2n-1 nodes, n >= 1)", len(nodes), n)
	}
	if n > MaxLeaves {
		return nil, cairn.Errorf(cairn.ETOOLARGE, "merkle: %d leaves exceed the limit of %d", n, MaxLeaves)
	}
	t := &Tree{nodes: nodes, tidx: make([]int32, n), vidx: make([]int32, n)}
	last := 2*n - 2
	seen := make([]bool, n)
	for v, ti := range treeIndex {
		k := last - ti
		if ti < n-1 || ti > last || seen[k] {
			return nil, cairn.Errorf(cairn.EINVALID, "merkle: value %d has tree index %d, not a free leaf slot", v, ti)
		}
		seen[k] = true
		t.tidx[v] = int32(ti)
		t.vidx[k] = int32(v)
	}
	bad := make([]bool, n-1)
	forChunks(0, n-1, parallelNodes, func(a, b int) {
		k := hasherPool.Get().(*hasher)
		for i := a; i < b; i++ {
			bad[i] = k.pair(&nodes[2*i+1], &nodes[2*i+2]) != nodes[i]
		}
		hasherPool.Put(k)
	})
	for i, b := range bad {
		if b {
			return nil, cairn.Errorf(cairn.EINVALID, "merkle: node %d is not the hash of its children", i)
		}
	}
	// A tree whose leaf slots ascend by (hash, value index) is what a sorted
	// build produces: it gets the binary-search lookup.
	t.sorted = true
	for k := 1; k < n && t.sorted; k++ {
		t.sorted = lessLeaf(&nodes[last-k+1], &nodes[last-k], t.vidx[k-1], t.vidx[k]) < 0
	}
	t.indexPrefixes()
	return t, nil
}

// checkLeaves reports the first value whose leaf hash is not the node at its
// tree index.
func checkLeaves(t *Tree, leaf func(k *hasher, i int) (Hash, error)) error {
	errs := make([]error, t.Len())
	forChunks(0, t.Len(), parallelNodes, func(a, b int) {
		k := hasherPool.Get().(*hasher)
		for i := a; i < b; i++ {
			h, err := leaf(k, i)
			if err == nil && h != t.nodes[t.tidx[i]] {
				err = cairn.Errorf(cairn.EINVALID, "merkle: value %d does not hash to the leaf at tree index %d", i, t.tidx[i])
			}
			errs[i] = err
		}
		hasherPool.Put(k)
	})
	for _, err := range errs {
		if err != nil {
			return err
		}
	}
	return nil
}
