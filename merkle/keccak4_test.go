package merkle

import (
	"bytes"
	"math/rand/v2"
	"testing"

	"golang.org/x/crypto/sha3"
)

// refLeaf is keccak256(keccak256(e)) through x/crypto's sponge alone.
func refLeaf(e []byte) Hash {
	h := sha3.NewLegacyKeccak256()
	h.Write(e)
	inner := h.Sum(nil)
	h.Reset()
	h.Write(inner)
	var out Hash
	copy(out[:], h.Sum(nil))
	return out
}

// TestLeavesFourWay compares the batched leaf hashes with the plain
// double keccak256 for every length across two blocks' boundaries, four
// lanes of one length (the batched path), of mixed lengths (the fallback)
// and of many distinct first blocks (the midstate cache evicting entries
// that lanes of the same batch use).
func TestLeavesFourWay(t *testing.T) {
	r := rand.New(rand.NewPCG(1, 2))
	random := func(n int) []byte {
		b := make([]byte, n)
		for i := range b {
			b[i] = byte(r.Uint32())
		}
		return b
	}
	k := newHasher()
	check := func(encs [][]byte) {
		t.Helper()
		out := make([]Hash, len(encs))
		k.leaves(encs, out)
		for l, e := range encs {
			if want := refLeaf(e); out[l] != want {
				t.Fatalf("lane %d of %d, %d bytes: %s, want %s", l, len(encs), len(e), out[l], want)
			}
		}
	}
	for n := 0; n <= 3*rate+1; n++ {
		check([][]byte{random(n), random(n), random(n), random(n)})
	}
	// One shared first block, as a tree's leaves of one family have: the
	// midstate path, lengths on both sides of a block boundary.
	prefix := random(rate)
	for _, n := range []int{0, 1, rate - 1, rate, rate + 1, 2*rate + 7} {
		var encs [][]byte
		for range 4 {
			encs = append(encs, append(bytes.Clone(prefix), random(n)...))
		}
		check(encs)
		check(encs)
	}
	// Mixed lengths: some lanes need another block.
	check([][]byte{random(10), random(rate), random(3), random(2 * rate)})
	// Fewer than four.
	check([][]byte{random(300), random(300)})
	// A lane whose first block is cached while the other three miss and
	// evict entries, the one that lane uses among them.
	firsts := [][]byte{random(rate), random(rate), random(rate), random(rate)}
	with := func(first []byte) []byte { return append(bytes.Clone(first), random(50)...) }
	check([][]byte{with(firsts[0]), with(firsts[1]), with(firsts[2]), with(firsts[3])})
	check([][]byte{with(firsts[0]), random(rate + 50), random(rate + 50), random(rate + 50)})
	// Many distinct first blocks.
	for range 20 {
		var encs [][]byte
		for range 4 {
			encs = append(encs, random(rate+40))
		}
		check(encs)
	}
}

// TestPairsFourWay compares four node hashes at once with HashPair, both
// orders of the children included.
func TestPairsFourWay(t *testing.T) {
	k := newHasher()
	var a, b [4]Hash
	for i := range 50 {
		for l := range 4 {
			a[l] = Keccak256([]byte{byte(i), byte(l), 1})
			b[l] = Keccak256([]byte{byte(i), byte(l), 2})
		}
		var out [4]Hash
		k.pairs4(&[4]*Hash{&a[0], &a[1], &a[2], &a[3]}, &[4]*Hash{&b[0], &b[1], &b[2], &b[3]}, &out)
		for l := range 4 {
			if want := HashPair(a[l], b[l]); out[l] != want {
				t.Fatalf("pair %d lane %d: %s, want %s", i, l, out[l], want)
			}
		}
	}
}
