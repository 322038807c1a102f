package merkle

import (
	"math/rand/v2"
	"slices"
	"testing"
)

// refWalk is MultiProofWalk's steps as OpenZeppelin's getMultiProof takes
// them, over a queue that keeps every node pushed.
func refWalk(nodes []int) (siblings []int, pairs []bool) {
	queue := slices.Clone(nodes)
	for head := 0; head < len(queue) && queue[head] > 0; {
		j := queue[head]
		head++
		s := sibling(j)
		pair := head < len(queue) && queue[head] == s
		if pair {
			head++
		}
		siblings, pairs = append(siblings, s), append(pairs, pair)
		queue = append(queue, (j-1)/2)
	}
	return siblings, pairs
}

// TestMultiProofWalkRing: the walk over its ring takes the reference
// walk's steps, for batches on both sides of the ring's stack size, and
// the multiproofs verify within the steps maxSteps allows.
func TestMultiProofWalkRing(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	for _, n := range []int{1, 2, 3, 200, 1000, 4097} {
		tr, err := Build(randomLeaves(r, n, false, false), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 1, 2, 127, 128, 129, 300, n} {
			if k > n {
				continue
			}
			mp, err := tr.MultiProof(r.Perm(n)[:k])
			if err != nil {
				t.Fatal(err)
			}
			wantS, wantP := refWalk(mp.Nodes)
			var gotS []int
			var gotP []bool
			if !MultiProofWalk(mp.Nodes, func(s int, pair bool) { gotS, gotP = append(gotS, s), append(gotP, pair) }) {
				t.Fatalf("n=%d k=%d: walk refused the proof's nodes", n, k)
			}
			if !slices.Equal(gotS, wantS) || !slices.Equal(gotP, wantP) {
				t.Fatalf("n=%d k=%d: walk took %d steps unlike the reference's %d", n, k, len(gotS), len(wantS))
			}
			if !VerifyMultiProof(tr.Root(), mp) {
				t.Fatalf("n=%d k=%d: multiproof does not verify", n, k)
			}
			if steps := maxSteps(2*n-1, k, 0); len(mp.ProofFlags) > steps {
				t.Fatalf("n=%d k=%d: %d steps, more than the bound %d", n, k, len(mp.ProofFlags), steps)
			}
		}
	}
}

// TestMultiProofBelow: a multiproof below a top holds MultiProof's flags,
// leaves and nodes and, of its proof hashes, exactly those of nodes at
// the top or beyond, in their order, within maxSteps' bound.
func TestMultiProofBelow(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	for _, n := range []int{1, 2, 5, 1000, 4097} {
		tr, err := Build(randomLeaves(r, n, false, false), true)
		if err != nil {
			t.Fatal(err)
		}
		for _, k := range []int{0, 1, 3, 129, n} {
			if k > n {
				continue
			}
			idx := r.Perm(n)[:k]
			whole, err := tr.MultiProof(idx)
			if err != nil {
				t.Fatal(err)
			}
			for _, top := range []int{0, 1, 2, 7, 1023, 2*n - 1, 4 * n} {
				mp, err := tr.MultiProofBelow(idx, top)
				if err != nil {
					t.Fatal(err)
				}
				var want []Hash
				i := 0
				MultiProofWalk(whole.Nodes, func(s int, pair bool) {
					if !pair {
						if s >= top {
							want = append(want, whole.Proof[i])
						}
						i++
					}
				})
				if k == 0 {
					want = whole.Proof
				}
				if !slices.Equal(mp.Proof, want) || !slices.Equal(mp.ProofFlags, whole.ProofFlags) ||
					!slices.Equal(mp.Leaves, whole.Leaves) || !slices.Equal(mp.Nodes, whole.Nodes) || !slices.Equal(mp.Indices, whole.Indices) {
					t.Fatalf("n=%d k=%d top=%d: %d proof hashes, want %d of MultiProof's %d", n, k, top, len(mp.Proof), len(want), len(whole.Proof))
				}
				if k > 0 && len(mp.Proof) > maxSteps(2*n-1, k, top) {
					t.Fatalf("n=%d k=%d top=%d: %d proof hashes, more than the bound %d", n, k, top, len(mp.Proof), maxSteps(2*n-1, k, top))
				}
			}
		}
	}
}
