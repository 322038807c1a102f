package merkle

import (
	"slices"

	"github.com/cairn-dev/cairn"
)

// StandardTree is OpenZeppelin's StandardMerkleTree: a Tree whose leaves
// are StandardLeafHash(leafEncoding, value) of its values, with the values
// kept for proofs by value and for Dump.
type StandardTree struct {
	tree     *Tree
	encoding []string
	values   [][]any     // the values, or nil when pairs holds them
	pairs    [][2]string // ["string","string"] values, stored without boxing
}

// Strings2 is the leaf encoding of cairn's address list: (family, address).
var Strings2 = []string{TypeString, TypeString}

// Strings3 is the leaf encoding of cairn's exclusion trees: a gap (family,
// low, high) between consecutive listed addresses.
var Strings3 = []string{TypeString, TypeString, TypeString}

// NewStandardTree builds StandardMerkleTree.of(values, leafEncoding,
// {sortLeaves}). Each value must match leafEncoding (see AbiEncode).
func NewStandardTree(values [][]any, leafEncoding []string, sortLeaves bool) (*StandardTree, error) {
	if err := checkTypes(leafEncoding); err != nil {
		return nil, err
	}
	leaves := make([]Hash, len(values))
	errs := make([]error, len(values))
	forChunks(0, len(values), parallelNodes, func(lo, hi int) {
		k := hasherPool.Get().(*hasher)
		for i := lo; i < hi; i++ {
			leaves[i], errs[i] = k.standardLeaf(leafEncoding, values[i])
		}
		hasherPool.Put(k)
	})
	for _, err := range errs {
		if err != nil {
			return nil, err
		}
	}
	t, err := Build(leaves, sortLeaves)
	if err != nil {
		return nil, err
	}
	return &StandardTree{tree: t, encoding: slices.Clone(leafEncoding), values: values}, nil
}

// NewStrings2Tree builds the ["string","string"] StandardMerkleTree of
// pairs, hashing the leaves on all CPUs. It keeps pairs (not a copy).
func NewStrings2Tree(pairs [][2]string, sortLeaves bool) (*StandardTree, error) {
	t, err := Build(LeafHashesStrings2(pairs), sortLeaves)
	if err != nil {
		return nil, err
	}
	return &StandardTree{tree: t, encoding: slices.Clone(Strings2), pairs: pairs}, nil
}

// Tree returns the underlying hash tree.
func (s *StandardTree) Tree() *Tree { return s.tree }

// Root returns the root.
func (s *StandardTree) Root() Hash { return s.tree.Root() }

// Len returns the number of values.
func (s *StandardTree) Len() int { return s.tree.Len() }

// LeafEncoding returns a copy of the leaf types.
func (s *StandardTree) LeafEncoding() []string { return slices.Clone(s.encoding) }

// Value returns the value with index i, or nil when i is out of range.
func (s *StandardTree) Value(i int) []any {
	if i < 0 || i >= s.Len() {
		return nil
	}
	if s.pairs != nil {
		return []any{s.pairs[i][0], s.pairs[i][1]}
	}
	return s.values[i]
}

// LeafHash returns the leaf hash of value under this tree's encoding.
func (s *StandardTree) LeafHash(value []any) (Hash, error) {
	return StandardLeafHash(s.encoding, value)
}

// LeafLookup returns the index of value, ENOTFOUND when it is not a leaf.
func (s *StandardTree) LeafLookup(value []any) (int, error) {
	h, err := s.LeafHash(value)
	if err != nil {
		return 0, err
	}
	i, ok := s.tree.LeafIndex(h)
	if !ok {
		return 0, cairn.Errorf(cairn.ENOTFOUND, "merkle: value is not in the tree")
	}
	return i, nil
}

// Proof returns the proof of the value with index i.
func (s *StandardTree) Proof(i int) ([]Hash, error) { return s.tree.Proof(i) }

// ProofOf returns the proof of value, ENOTFOUND when it is not a leaf.
func (s *StandardTree) ProofOf(value []any) ([]Hash, error) {
	i, err := s.LeafLookup(value)
	if err != nil {
		return nil, err
	}
	return s.tree.Proof(i)
}

// MultiProof returns the multiproof of the values with the given indices;
// its Indices name the values in the order the verifier takes them.
func (s *StandardTree) MultiProof(indices []int) (MultiProof, error) {
	return s.tree.MultiProof(indices)
}

// Verify reports whether proof proves value under this tree's root.
func (s *StandardTree) Verify(value []any, proof []Hash) (bool, error) {
	return VerifyStandard(s.Root(), s.encoding, value, proof)
}

// VerifyStandard is StandardMerkleTree.verify: whether proof proves value,
// encoded with leafEncoding, under root. A value that does not encode is an
// error, not a false.
func VerifyStandard(root Hash, leafEncoding []string, value []any, proof []Hash) (bool, error) {
	h, err := StandardLeafHash(leafEncoding, value)
	if err != nil {
		return false, err
	}
	return Verify(root, h, proof), nil
}

// VerifyStandardMultiProof is StandardMerkleTree.verifyMultiProof: values
// in the order of the multiproof's leaves.
func VerifyStandardMultiProof(root Hash, leafEncoding []string, values [][]any, proof []Hash, flags []bool) (bool, error) {
	mp := MultiProof{Leaves: make([]Hash, len(values)), Proof: proof, ProofFlags: flags}
	for i, v := range values {
		h, err := StandardLeafHash(leafEncoding, v)
		if err != nil {
			return false, err
		}
		mp.Leaves[i] = h
	}
	return VerifyMultiProof(root, mp), nil
}
