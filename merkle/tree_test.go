package merkle

import (
	"encoding/binary"
	"math/rand/v2"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
)

// refTree is OpenZeppelin's prepare + makeMerkleTree written the plain
// way: a stable sort by hash, then one sequential loop.
func refTree(leaves []Hash, sortLeaves bool) (nodes []Hash, treeIndex []int) {
	order := make([]int, len(leaves))
	for i := range order {
		order[i] = i
	}
	if sortLeaves {
		slices.SortStableFunc(order, func(a, b int) int { return leaves[a].Compare(leaves[b]) })
	}
	nodes = make([]Hash, 2*len(leaves)-1)
	treeIndex = make([]int, len(leaves))
	for k, v := range order {
		nodes[len(nodes)-1-k] = leaves[v]
		treeIndex[v] = len(nodes) - 1 - k
	}
	for i := len(nodes) - 1 - len(leaves); i >= 0; i-- {
		nodes[i] = HashPair(nodes[2*i+1], nodes[2*i+2])
	}
	return nodes, treeIndex
}

// randomLeaves returns n leaves; skew forces a shared two-byte prefix on
// most of them (crowded sort buckets) and dups repeats some.
func randomLeaves(r *rand.Rand, n int, skew, dups bool) []Hash {
	leaves := make([]Hash, n)
	for i := range leaves {
		if dups && i > 0 && r.IntN(4) == 0 {
			leaves[i] = leaves[r.IntN(i)]
			continue
		}
		for j := 0; j < 32; j += 8 {
			binary.LittleEndian.PutUint64(leaves[i][j:], r.Uint64())
		}
		if skew && r.IntN(8) != 0 {
			leaves[i][0], leaves[i][1] = 0xab, 0xcd
		}
	}
	return leaves
}

func TestBuildMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(5, 6))
	for _, tc := range []struct {
		name       string
		n          int
		skew, dups bool
	}{
		{"1", 1, false, false}, {"2", 2, false, false}, {"3", 3, false, false}, {"7", 7, false, true},
		{"1000", 1000, false, true}, {"Large", 3*parallelSort + 17, false, false},
		{"LargeSkewed", parallelSort + 5, true, false}, {"LargeDups", parallelSort + 9, false, true},
	} {
		leaves := randomLeaves(r, tc.n, tc.skew, tc.dups)
		for _, sorted := range []bool{true, false} {
			t.Run(tc.name+map[bool]string{true: "/Sorted", false: "/Unsorted"}[sorted], func(t *testing.T) {
				tr, err := Build(leaves, sorted)
				if err != nil {
					t.Fatal(err)
				}
				nodes, tidx := refTree(leaves, sorted)
				if !slices.Equal(tr.Nodes(), nodes) {
					t.Fatal("nodes differ from the reference")
				}
				for v, want := range tidx {
					if got, _ := tr.TreeIndex(v); got != want {
						t.Fatalf("value %d: tree index %d, want %d", v, got, want)
					}
				}
				// LeafIndex returns the last value with the hash, as OZ's hashLookup.
				last := map[Hash]int{}
				for v, h := range leaves {
					last[h] = v
				}
				for h, want := range last {
					if got, ok := tr.LeafIndex(h); !ok || got != want {
						t.Fatalf("LeafIndex: %d %v, want %d", got, ok, want)
					}
				}
				if _, ok := tr.LeafIndex(Hash{0xff, 0xfe}); ok {
					t.Error("LeafIndex finds an absent hash")
				}
			})
		}
	}
}

// TestBuildSortedFuncMatchesReference builds each tree from its leaves
// written into the tree's own array (small inputs, large ones through the
// bucket sort, crowded buckets, repeated hashes): the nodes and every
// value's tree index are the reference's.
func TestBuildSortedFuncMatchesReference(t *testing.T) {
	r := rand.New(rand.NewPCG(9, 10))
	for _, tc := range []struct {
		n          int
		skew, dups bool
	}{{1, false, false}, {2, false, true}, {1000, false, true}, {parallelSort, false, false},
		{4*parallelSort + 3, false, true}, {2*parallelSort + 1, true, true}} {
		leaves := randomLeaves(r, tc.n, tc.skew, tc.dups)
		tr, err := BuildSortedFunc(len(leaves), func(dst []Hash) { copy(dst, leaves) })
		if err != nil {
			t.Fatal(err)
		}
		nodes, tidx := refTree(leaves, true)
		if !slices.Equal(tr.Nodes(), nodes) {
			t.Fatalf("%+v: nodes differ from the reference", tc)
		}
		for v, want := range tidx {
			if got, _ := tr.TreeIndex(v); got != want {
				t.Fatalf("%+v: value %d: tree index %d, want %d", tc, v, got, want)
			}
		}
	}
	if _, err := BuildSortedFunc(0, func([]Hash) {}); !cairn.IsCode(err, cairn.EINVALID) {
		t.Errorf("no leaves: %v, want EINVALID", err)
	}
}

func TestTreeErrors(t *testing.T) {
	tr, err := Build(randomLeaves(rand.New(rand.NewPCG(7, 8)), 5, false, false), true)
	if err != nil {
		t.Fatal(err)
	}
	for _, tc := range []struct {
		name string
		run  func() error
		code string
	}{
		{"EmptyBuild", func() error { _, err := Build(nil, true); return err }, "invalid"},
		{"EmptySimple", func() error { _, err := NewSimpleTree(nil, true); return err }, "invalid"},
		{"EmptyStandard", func() error { _, err := NewStandardTree(nil, []string{"string"}, true); return err }, "invalid"},
		{"ProofNegative", func() error { _, err := tr.Proof(-1); return err }, "invalid"},
		{"ProofPastEnd", func() error { _, err := tr.Proof(5); return err }, "invalid"},
		{"AppendProofPastEnd", func() error { _, err := tr.AppendProof(nil, 9); return err }, "invalid"},
		{"LeafPastEnd", func() error { _, err := tr.Leaf(5); return err }, "invalid"},
		{"ProofOfUnknown", func() error { _, _, err := tr.ProofOf(Hash{1}); return err }, "not_found"},
		{"MultiProofOutOfRange", func() error { _, err := tr.MultiProof([]int{0, 5}); return err }, "invalid"},
		{"MultiProofDuplicate", func() error { _, err := tr.MultiProof([]int{1, 3, 1}); return err }, "invalid"},
		{"MultiProofTooFewHashes", func() error {
			_, err := ProcessMultiProof(MultiProof{Leaves: []Hash{{1}}, ProofFlags: []bool{false}})
			return err
		}, "invalid"},
		{"MultiProofIncompatible", func() error {
			_, err := ProcessMultiProof(MultiProof{Leaves: []Hash{{1}, {2}}, Proof: []Hash{{3}}, ProofFlags: []bool{false}})
			return err
		}, "invalid"},
		{"MultiProofBroken", func() error {
			_, err := ProcessMultiProof(MultiProof{Leaves: []Hash{{1}}, Proof: []Hash{{2}, {3}}, ProofFlags: []bool{true, false}})
			return err
		}, "invalid"},
		{"StandardUnknownValue", func() error {
			st, _ := NewStrings2Tree([][2]string{{"evm", "0x01"}}, true)
			_, err := st.ProofOf([]any{"evm", "0x02"})
			return err
		}, "not_found"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			if got := cairn.ErrorCode(tc.run()); got != tc.code {
				t.Errorf("code %q, want %q", got, tc.code)
			}
		})
	}
	t.Run("MultiProofEmpty", func(t *testing.T) {
		mp, err := tr.MultiProof(nil)
		if err != nil || len(mp.Leaves) != 0 || len(mp.ProofFlags) != 0 || !slices.Equal(mp.Proof, []Hash{tr.Root()}) {
			t.Fatalf("%+v %v", mp, err)
		}
		if !VerifyMultiProof(tr.Root(), mp) {
			t.Error("empty multiproof does not verify")
		}
	})
}
