package screening

import (
	"hash"
	"sync"

	"github.com/ethereum/go-ethereum/crypto/keccak"
)

// keccakState is a pooled legacy Keccak-256 hasher with its output buffer, so
// that hashing on the screening path allocates nothing.
type keccakState struct {
	h   hash.Hash
	in  [maxDecoded]byte // copy of the input, so the caller's bytes stay on its stack
	out [32]byte
}

var keccakPool = sync.Pool{New: func() any {
	return &keccakState{h: keccak.NewLegacyKeccak256()}
}}

// keccak256 returns the legacy Keccak-256 (as used by Ethereum and Monero,
// not FIPS-202 SHA3-256) of b, which is at most maxDecoded bytes.
func keccak256(b []byte) [32]byte {
	k := keccakPool.Get().(*keccakState)
	k.h.Reset()
	n := copy(k.in[:], b)
	k.h.Write(k.in[:n])
	sum := k.h.Sum(k.out[:0])
	var out [32]byte
	copy(out[:], sum)
	keccakPool.Put(k)
	return out
}
