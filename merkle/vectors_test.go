package merkle

import (
	"reflect"
	"slices"
	"strings"
	"testing"
)

func TestVectorSmallAddress(t *testing.T) {
	v := loadVectors(t).SmallAddress
	st, err := NewStandardTree(values1(v.Values), v.LeafEncoding, true)
	if err != nil {
		t.Fatal(err)
	}
	t.Run("Root", func(t *testing.T) {
		if got := st.Root().String(); got != v.Root {
			t.Errorf("root %s, want %s", got, v.Root)
		}
	})
	t.Run("LeafHashesAndProofs", func(t *testing.T) {
		for i, a := range v.Values {
			h, err := st.LeafHash([]any{a})
			if err != nil || h.String() != v.LeafHashes[a] {
				t.Errorf("%s: leaf %s (%v), want %s", a, h, err, v.LeafHashes[a])
			}
			p, err := st.Proof(i)
			if err != nil || !slices.Equal(hexes(p), v.Proofs[a]) {
				t.Errorf("%s: proof %v (%v), want %v", a, hexes(p), err, v.Proofs[a])
			}
			p2, err := st.ProofOf([]any{a})
			if err != nil || !slices.Equal(hexes(p2), v.Proofs[a]) {
				t.Errorf("%s: ProofOf %v (%v)", a, hexes(p2), err)
			}
			if ok, err := st.Verify([]any{a}, p); !ok || err != nil {
				t.Errorf("%s: proof does not verify (%v)", a, err)
			}
		}
	})
	t.Run("MultiProof", func(t *testing.T) {
		mp, err := st.MultiProof([]int{0, 2})
		if err != nil {
			t.Fatal(err)
		}
		var leaves [][]string
		for _, i := range mp.Indices {
			leaves = append(leaves, []string{v.Values[i]})
		}
		want := v.Multiproof
		if !reflect.DeepEqual(leaves, want.Leaves) || !slices.Equal(hexes(mp.Proof), want.Proof) || !slices.Equal(mp.ProofFlags, want.ProofFlags) {
			t.Errorf("multiproof %v %v %v, want %v %v %v", leaves, hexes(mp.Proof), mp.ProofFlags, want.Leaves, want.Proof, want.ProofFlags)
		}
		vals := make([][]any, len(want.Leaves))
		for i, l := range want.Leaves {
			vals[i] = []any{l[0]}
		}
		proof := make([]Hash, len(want.Proof))
		for i, p := range want.Proof {
			proof[i] = mustHash(t, p)
		}
		if ok, err := VerifyStandardMultiProof(st.Root(), v.LeafEncoding, vals, proof, want.ProofFlags); !ok || err != nil {
			t.Errorf("fixture multiproof does not verify (%v)", err)
		}
	})
	t.Run("Dump", func(t *testing.T) {
		got, err := st.Dump()
		if err != nil {
			t.Fatal(err)
		}
		sameJSON(t, got, v.Dump)
		lt, err := LoadStandard(v.Dump)
		if err != nil {
			t.Fatal(err)
		}
		again, err := lt.Dump()
		if err != nil {
			t.Fatal(err)
		}
		if string(again) != string(got) {
			t.Errorf("load+dump differs from build+dump")
		}
	})
}

func TestVectorSmallAddressUnsorted(t *testing.T) {
	vs := loadVectors(t)
	st, err := NewStandardTree(values1(vs.SmallAddress.Values), []string{"address"}, false)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Root().String(); got != vs.SmallAddressUnsorted.Root {
		t.Errorf("root %s, want %s", got, vs.SmallAddressUnsorted.Root)
	}
	got, err := st.Dump()
	if err != nil {
		t.Fatal(err)
	}
	sameJSON(t, got, vs.SmallAddressUnsorted.Dump)
}

func TestVectorOFACEthAll(t *testing.T) {
	v := loadVectors(t).OFACEthAll
	var addrs []string
	for _, l := range strings.Fields(string(readFile(t, "sanctioned_addresses_ETH.txt"))) {
		addrs = append(addrs, strings.ToLower(l))
	}
	if len(addrs) != v.Count {
		t.Fatalf("%d addresses, want %d", len(addrs), v.Count)
	}
	st, err := NewStandardTree(values1(addrs), []string{"address"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Root().String(); got != v.Root {
		t.Errorf("root %s, want %s", got, v.Root)
	}
	p, err := st.ProofOf([]any{v.ProofOfFirst.Value})
	if err != nil || !slices.Equal(hexes(p), v.ProofOfFirst.Proof) {
		t.Errorf("proof %v (%v), want %v", hexes(p), err, v.ProofOfFirst.Proof)
	}
}

func TestVectorChainAddressStrings(t *testing.T) {
	v := loadVectors(t).ChainAddressStrings
	generic := make([][]any, len(v.Values))
	for i, p := range v.Values {
		generic[i] = []any{p[0], p[1]}
	}
	gt, err := NewStandardTree(generic, v.LeafEncoding, true)
	if err != nil {
		t.Fatal(err)
	}
	ft, err := NewStrings2Tree(v.Values, true)
	if err != nil {
		t.Fatal(err)
	}
	for name, st := range map[string]*StandardTree{"Generic": gt, "Strings2": ft} {
		t.Run(name, func(t *testing.T) {
			if got := st.Root().String(); got != v.Root {
				t.Errorf("root %s, want %s", got, v.Root)
			}
			for _, pv := range v.Proofs {
				if h := LeafHashStrings2(pv.Value[0], pv.Value[1]); h.String() != pv.LeafHash {
					t.Errorf("%v: leaf %s, want %s", pv.Value, h, pv.LeafHash)
				}
				p, err := st.ProofOf([]any{pv.Value[0], pv.Value[1]})
				if err != nil || !slices.Equal(hexes(p), pv.Proof) {
					t.Errorf("%v: proof %v (%v), want %v", pv.Value, hexes(p), err, pv.Proof)
				}
			}
		})
	}
	a, _ := gt.Dump()
	b, _ := ft.Dump()
	if string(a) != string(b) {
		t.Errorf("generic and Strings2 dumps differ:\n%s\n%s", a, b)
	}
}

func TestVectorSingleLeaf(t *testing.T) {
	v := loadVectors(t).SingleLeaf
	st, err := NewStandardTree([][]any{{v.Value}}, []string{"address"}, true)
	if err != nil {
		t.Fatal(err)
	}
	if got := st.Root().String(); got != v.Root {
		t.Errorf("root %s, want %s", got, v.Root)
	}
	p, err := st.Proof(0)
	if err != nil || len(p) != 0 || len(v.Proof) != 0 {
		t.Errorf("proof %v (%v), want empty", hexes(p), err)
	}
	if ok, _ := st.Verify([]any{v.Value}, p); !ok {
		t.Error("single leaf does not verify")
	}
}
