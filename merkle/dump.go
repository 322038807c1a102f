package merkle

import (
	"bytes"
	"encoding/json"
	"strconv"

	"github.com/cairn-dev/cairn"
)

// FormatStandard and FormatSimple are the "format" members of the dumps.
const (
	FormatStandard = "standard-v1"
	FormatSimple   = "simple-v1"
)

// Dump returns StandardMerkleTree.dump() as JSON.stringify writes it:
// {"format":"standard-v1","leafEncoding":[...],"tree":[...],
// "values":[{"value":[...],"treeIndex":N},...]}.
func (s *StandardTree) Dump() ([]byte, error) {
	t := s.tree
	dst := make([]byte, 0, 64+70*len(t.nodes)+96*t.Len())
	dst = append(dst, `{"format":"standard-v1","leafEncoding":`...)
	dst = appendJSONStrings(dst, s.encoding)
	dst = append(dst, ',')
	dst = appendJSONTree(dst, t.nodes)
	dst = append(dst, `,"values":[`...)
	for i := range t.Len() {
		if i > 0 {
			dst = append(dst, ',')
		}
		dst = append(dst, `{"value":[`...)
		if s.pairs != nil {
			dst = appendJSONString(dst, s.pairs[i][0])
			dst = append(dst, ',')
			dst = appendJSONString(dst, s.pairs[i][1])
		} else {
			for j, v := range s.values[i] {
				if j > 0 {
					dst = append(dst, ',')
				}
				var err error
				if dst, err = appendJSONValue(dst, v); err != nil {
					return nil, err
				}
			}
		}
		dst = append(dst, `],"treeIndex":`...)
		dst = strconv.AppendInt(dst, int64(t.tidx[i]), 10)
		dst = append(dst, '}')
	}
	return append(dst, "]}"...), nil
}

type standardDump struct {
	Format       string   `json:"format"`
	LeafEncoding []string `json:"leafEncoding"`
	Tree         []Hash   `json:"tree"`
	Values       []struct {
		Value     []any `json:"value"`
		TreeIndex int   `json:"treeIndex"`
	} `json:"values"`
}

// LoadStandard is StandardMerkleTree.load: it reads a "standard-v1" dump
// and validates it (every value hashes to its leaf, every node to its
// children). Numbers in values are kept as json.Number, so a loaded dump
// dumps back byte for byte. Any defect is EINVALID.
func LoadStandard(data []byte) (*StandardTree, error) {
	var d standardDump
	if err := decodeStrict(data, &d); err != nil {
		return nil, err
	}
	if d.Format != FormatStandard {
		return nil, cairn.Errorf(cairn.EINVALID, "merkle: unknown format %q", clip(d.Format))
	}
	if err := checkTypes(d.LeafEncoding); err != nil {
		return nil, err
	}
	tis := make([]int, len(d.Values))
	values := make([][]any, len(d.Values))
	for i, v := range d.Values {
		tis[i], values[i] = v.TreeIndex, v.Value
	}
	t, err := fromNodes(d.Tree, tis)
	if err != nil {
		return nil, err
	}
	err = checkLeaves(t, func(k *hasher, i int) (Hash, error) { return k.standardLeaf(d.LeafEncoding, values[i]) })
	if err != nil {
		return nil, err
	}
	return &StandardTree{tree: t, encoding: d.LeafEncoding, values: values}, nil
}

// decodeStrict decodes one JSON object with numbers as json.Number and no
// unknown members.
func decodeStrict(data []byte, v any) error {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return cairn.Errorf(cairn.EINVALID, "merkle: bad dump: %s", err.Error())
	}
	if dec.More() {
		return cairn.Errorf(cairn.EINVALID, "merkle: bad dump: trailing data")
	}
	return nil
}
