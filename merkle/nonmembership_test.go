package merkle

import (
	"encoding/json"
	"slices"
	"strings"
	"testing"
)

// TestVectorLinkedLeafNonMembership checks the fixture proof with the
// standard verifier and rebuilds the linked-leaf tree from the ETH list.
func TestVectorLinkedLeafNonMembership(t *testing.T) {
	var v struct {
		Count   int      `json:"count_leaves"`
		Root    string   `json:"root"`
		Query   string   `json:"query"`
		LowLeaf []string `json:"low_leaf"`
		Proof   []string `json:"proof"`
	}
	if err := json.Unmarshal(readFile(t, "oz_linked_leaf_nonmembership_vector.json"), &v); err != nil {
		t.Fatal(err)
	}
	enc := []string{"address", "address"}
	proof := make([]Hash, len(v.Proof))
	for i, p := range v.Proof {
		proof[i] = mustHash(t, p)
	}
	root := mustHash(t, v.Root)
	low := []any{v.LowLeaf[0], v.LowLeaf[1]}
	t.Run("Verify", func(t *testing.T) {
		if ok, err := VerifyStandard(root, enc, low, proof); !ok || err != nil {
			t.Fatalf("low leaf does not verify (%v)", err)
		}
		if !(v.LowLeaf[0] < v.Query && v.Query < v.LowLeaf[1]) {
			t.Errorf("query %s is not between %v", v.Query, v.LowLeaf)
		}
		if ok, _ := VerifyStandard(root, enc, []any{v.LowLeaf[0], v.Query}, proof); ok {
			t.Error("a forged leaf verifies")
		}
	})
	t.Run("Rebuild", func(t *testing.T) {
		addrs := []string{"0x0000000000000000000000000000000000000000"}
		for _, l := range strings.Fields(string(readFile(t, "sanctioned_addresses_ETH.txt"))) {
			addrs = append(addrs, strings.ToLower(l))
		}
		slices.Sort(addrs[1:])
		addrs = append(addrs, "0xffffffffffffffffffffffffffffffffffffffff")
		var leaves [][]any
		for i := 0; i+1 < len(addrs); i++ {
			leaves = append(leaves, []any{addrs[i], addrs[i+1]})
		}
		st, err := NewStandardTree(leaves, enc, true)
		if err != nil {
			t.Fatal(err)
		}
		if st.Len() != v.Count || st.Root() != root {
			t.Errorf("%d leaves root %s, want %d %s", st.Len(), st.Root(), v.Count, v.Root)
		}
		p, err := st.ProofOf(low)
		if err != nil || !slices.Equal(hexes(p), v.Proof) {
			t.Errorf("proof %v (%v), want %v", hexes(p), err, v.Proof)
		}
	})
}
