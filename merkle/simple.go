package merkle

import (
	"strconv"

	"github.com/cairn-dev/cairn"
)

// SimpleTree is OpenZeppelin's SimpleMerkleTree with the default node hash:
// the values are bytes32 and each is its own leaf (abi.encode of one
// bytes32 is the value itself; nothing is hashed at the leaf).
type SimpleTree struct {
	tree *Tree
}

// NewSimpleTree builds SimpleMerkleTree.of(values, {sortLeaves}).
func NewSimpleTree(values []Hash, sortLeaves bool) (*SimpleTree, error) {
	t, err := Build(values, sortLeaves)
	if err != nil {
		return nil, err
	}
	return &SimpleTree{tree: t}, nil
}

// Tree returns the underlying hash tree; its leaves are the values.
func (s *SimpleTree) Tree() *Tree { return s.tree }

// Root returns the root.
func (s *SimpleTree) Root() Hash { return s.tree.Root() }

// Dump returns SimpleMerkleTree.dump() as JSON.stringify writes it:
// {"format":"simple-v1","tree":[...],"values":[{"value":"0x..","treeIndex":N},...]}.
func (s *SimpleTree) Dump() []byte {
	t := s.tree
	dst := make([]byte, 0, 32+70*len(t.nodes)+90*t.Len())
	dst = append(dst, `{"format":"simple-v1",`...)
	dst = appendJSONTree(dst, t.nodes)
	dst = append(dst, `,"values":[`...)
	for i, ti := range t.tidx {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"value":`...)
		dst = appendJSONHex(dst, t.nodes[ti][:])
		dst = append(dst, `,"treeIndex":`...)
		dst = strconv.AppendInt(dst, int64(ti), 10)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...)
}

type simpleDump struct {
	Format string `json:"format"`
	Tree   []Hash `json:"tree"`
	Values []struct {
		Value     Hash `json:"value"`
		TreeIndex int  `json:"treeIndex"`
	} `json:"values"`
	Hash string `json:"hash"`
}

// LoadSimple is SimpleMerkleTree.load for a "simple-v1" dump built with the
// default node hash; a dump marked "hash":"custom" is EINVALID.
func LoadSimple(data []byte) (*SimpleTree, error) {
	var d simpleDump
	if err := decodeStrict(data, &d); err != nil {
		return nil, err
	}
	if d.Format != FormatSimple {
		return nil, cairn.Errorf(cairn.EINVALID, "merkle: unknown format %q", clip(d.Format))
	}
	if d.Hash != "" {
		return nil, cairn.Errorf(cairn.EINVALID, "merkle: custom node hashing (%q) is not supported", clip(d.Hash))
	}
	tis := make([]int, len(d.Values))
	for i, v := range d.Values {
		tis[i] = v.TreeIndex
	}
	t, err := fromNodes(d.Tree, tis)
	if err != nil {
		return nil, err
	}
	err = checkLeaves(t, func(_ *hasher, i int) (Hash, error) { return d.Values[i].Value, nil })
	if err != nil {
		return nil, err
	}
	return &SimpleTree{tree: t}, nil
}
