package merkle

import (
	"bytes"
	"encoding/binary"
	"fmt"

	"github.com/cloudflare/circl/simd/keccakf1600"
)

// Building a tree hashes every leaf twice and every internal node once:
// for a million leaves, millions of Keccak-f[1600] permutations, nearly
// all of a build's time. Those hashes are independent of each other
// within a level, so they are computed four at a time with circl's
// four-way permutation (AVX2 on amd64: about a third of the CPU time of
// four single ones; a portable one elsewhere, as fast as single ones),
// and a leaf whose encoding starts with a whole block already seen (the
// offsets and the family, the same in every leaf of a family) starts from
// the state after that block instead of permuting it again. The digests
// are those of keccak256 byte for byte: the tests compare them with
// golang.org/x/crypto/sha3 over every length and lane mix.

// rate is Keccak-256's block: 136 bytes absorbed per permutation.
const rate = 136

// x4 tells whether the four-way permutation runs on SIMD here; without it
// the single sponge is used, which is as fast and needs no batching.
var x4 = keccakf1600.IsEnabledX4()

// midstate is the sponge's state after absorbing one whole block: the
// lanes as little-endian words.
type midstate [25]uint64

// sponge4 computes four keccak256 digests at once. Word w of lane l of
// the interleaved state is a[4*w+l]. Not safe for concurrent use.
type sponge4 struct {
	st  keccakf1600.StateX4
	a   []uint64
	pad [4][rate]byte
}

func newSponge4() *sponge4 {
	s := &sponge4{}
	s.a = s.st.Initialize(false)
	return s
}

// sum sets out[l] to keccak256 of the message that continues, after the
// whole blocks that left the state start[l] (nil: none), with msgs[l]. The
// four remainders must take the same number of blocks once padded (they
// do when their lengths agree, which is the point of batching leaves of
// one shape); sum reports false, having done nothing, when they do not.
func (s *sponge4) sum(start *[4]*midstate, msgs *[4][]byte, out *[4]Hash) bool {
	blocks := len(msgs[0])/rate + 1
	for l := 1; l < 4; l++ {
		if len(msgs[l])/rate+1 != blocks {
			return false
		}
	}
	a := s.a
	for l := range 4 {
		if m := start[l]; m != nil {
			for w := range m {
				a[4*w+l] = m[w]
			}
		} else {
			for w := range 25 {
				a[4*w+l] = 0
			}
		}
	}
	for b := range blocks {
		for l := range 4 {
			block := msgs[l][b*rate:]
			if b == blocks-1 {
				// Keccak's padding (not SHA-3's): 0x01, zeros, 0x80.
				p := &s.pad[l]
				n := copy(p[:], block)
				clear(p[n:])
				p[n] ^= 0x01
				p[rate-1] ^= 0x80
				block = p[:]
			}
			for w := range rate / 8 {
				a[4*w+l] ^= binary.LittleEndian.Uint64(block[8*w:])
			}
		}
		s.st.Permute()
	}
	for l := range 4 {
		for w := range 4 {
			binary.LittleEndian.PutUint64(out[l][8*w:], a[4*w+l])
		}
	}
	return true
}

// prefixCache remembers the midstates of the last few first blocks seen:
// a tree's leaves come in runs of one shape, so a handful suffices.
type prefixCache struct {
	blocks [4][rate]byte
	mids   [4]midstate
	n      int // entries filled
	next   int // the entry replaced next
}

// midstate returns the state after absorbing block (rate bytes), from the
// cache or computed with the hasher's single sponge.
func (k *hasher) midstate(block []byte) *midstate {
	c := &k.prefixes
	for i := range c.n {
		if bytes.Equal(c.blocks[i][:], block) {
			return &c.mids[i]
		}
	}
	i := c.next
	c.next = (c.next + 1) % len(c.blocks)
	c.n = max(c.n, i+1)
	copy(c.blocks[i][:], block)
	// The single sponge permutes as soon as a block is full; its
	// marshalled state (magic, rate, the 200 state bytes, ...) holds the
	// result.
	k.st.Reset()
	k.st.Write(block)
	st, err := k.st.MarshalBinary()
	if err != nil || len(st) < 5+200 {
		panic(fmt.Sprintf("merkle: keccak state of %d bytes: %v", len(st), err))
	}
	for w := range c.mids[i] {
		c.mids[i][w] = binary.LittleEndian.Uint64(st[5+8*w:])
	}
	return &c.mids[i]
}

// leaves sets out[i] to the StandardMerkleTree leaf keccak256(keccak256(
// encs[i])) of each encoding, four at a time where it can.
func (k *hasher) leaves(encs [][]byte, out []Hash) {
	if len(encs) == 4 && x4 {
		var start [4]*midstate
		var mids [4]midstate // copies: a later lane's miss may evict an entry
		var msgs [4][]byte
		for l, e := range encs {
			msgs[l] = e
			if len(e) >= rate {
				mids[l] = *k.midstate(e[:rate])
				start[l], msgs[l] = &mids[l], e[rate:]
			}
		}
		s := k.four()
		var inner [4]Hash
		if s.sum(&start, &msgs, &inner) {
			for l := range inner {
				start[l], msgs[l] = nil, inner[l][:]
			}
			s.sum(&start, &msgs, (*[4]Hash)(out))
			return
		}
	}
	for i, e := range encs {
		out[i] = k.leaf(e)
	}
}

// pairs4 sets out[l] to the node hash of the pair (a[l], b[l]) for four
// pairs.
func (k *hasher) pairs4(a, b *[4]*Hash, out *[4]Hash) {
	if !x4 {
		for l := range out {
			out[l] = k.pair(a[l], b[l])
		}
		return
	}
	var msgs [4][]byte
	for l := range 4 {
		x, y := a[l], b[l]
		if bytes.Compare(x[:], y[:]) > 0 {
			x, y = y, x
		}
		m := k.pairBuf[l][:]
		copy(m[:32], x[:])
		copy(m[32:], y[:])
		msgs[l] = m
	}
	var none [4]*midstate
	k.four().sum(&none, &msgs, out)
}

func (k *hasher) four() *sponge4 {
	if k.x4 == nil {
		k.x4 = newSponge4()
	}
	return k.x4
}
