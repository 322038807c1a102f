package merkle

import (
	"bytes"
	"math/rand/v2"
	"os"
	"path/filepath"
	"testing"
)

// FuzzProofs builds a random tree; every proof and a random multiproof
// verify, and flipping any one bit of a proof element or of a leaf makes
// them fail.
func FuzzProofs(f *testing.F) {
	f.Add(uint64(1), uint16(1), true, uint16(0))
	f.Add(uint64(2), uint16(2), false, uint16(7))
	f.Add(uint64(3), uint16(37), true, uint16(300))
	f.Add(uint64(4), uint16(256), false, uint16(65535))
	f.Fuzz(func(t *testing.T, seed uint64, n uint16, sorted bool, bit uint16) {
		r := rand.New(rand.NewPCG(seed, uint64(n)))
		leaves := randomLeaves(r, 1+int(n)%300, false, false)
		tr, err := Build(leaves, sorted)
		if err != nil {
			t.Fatal(err)
		}
		root := tr.Root()
		flip := func(h Hash) Hash { h[bit/8%32] ^= 1 << (bit % 8); return h }
		for i, leaf := range leaves {
			p, err := tr.Proof(i)
			if err != nil {
				t.Fatal(err)
			}
			if !Verify(root, leaf, p) {
				t.Fatalf("proof %d does not verify", i)
			}
			if Verify(root, flip(leaf), p) {
				t.Fatalf("proof %d verifies a flipped leaf", i)
			}
			for j := range p {
				q := append([]Hash(nil), p...)
				q[j] = flip(q[j])
				if Verify(root, leaf, q) {
					t.Fatalf("proof %d verifies with element %d flipped", i, j)
				}
			}
		}
		var idx []int
		for i := range leaves {
			if r.IntN(3) == 0 {
				idx = append(idx, i)
			}
		}
		r.Shuffle(len(idx), func(a, b int) { idx[a], idx[b] = idx[b], idx[a] })
		mp, err := tr.MultiProof(idx)
		if err != nil {
			t.Fatal(err)
		}
		if !VerifyMultiProof(root, mp) {
			t.Fatalf("multiproof of %v does not verify", idx)
		}
		for k, v := range mp.Indices {
			if mp.Leaves[k] != leaves[v] {
				t.Fatalf("multiproof leaf %d is not value %d", k, v)
			}
		}
		for _, field := range [][]Hash{mp.Leaves, mp.Proof} {
			for j := range field {
				field[j] = flip(field[j])
				if VerifyMultiProof(root, mp) {
					t.Fatalf("multiproof verifies with an element flipped")
				}
				field[j] = flip(field[j])
			}
		}
	})
}

// FuzzLoad feeds arbitrary bytes to both dump loaders: no panic, and what
// loads dumps back to a dump that loads into the same tree.
func FuzzLoad(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("testdata", "oz_dumps", "*.json"))
	for _, name := range files {
		b, err := os.ReadFile(name)
		if err != nil {
			f.Fatal(err)
		}
		f.Add(b)
	}
	f.Add([]byte(`{"format":"standard-v1","leafEncoding":["uint256","bool"],"tree":[],"values":[]}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		if st, err := LoadStandard(data); err == nil {
			d1, err := st.Dump()
			if err != nil {
				t.Fatal(err)
			}
			st2, err := LoadStandard(d1)
			if err != nil {
				t.Fatalf("re-dump does not load: %v\n%s", err, d1)
			}
			d2, _ := st2.Dump()
			if !bytes.Equal(d1, d2) || st2.Root() != st.Root() {
				t.Fatalf("round trip differs:\n%s\n%s", d1, d2)
			}
		}
		if s, err := LoadSimple(data); err == nil {
			s2, err := LoadSimple(s.Dump())
			if err != nil || !bytes.Equal(s.Dump(), s2.Dump()) {
				t.Fatalf("simple round trip: %v", err)
			}
		}
	})
}
