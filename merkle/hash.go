package merkle

import (
	"bytes"
	"encoding/hex"
	"hash"
	"sync"

	"github.com/cairn-dev/cairn"
	"golang.org/x/crypto/sha3"
)

// Hash is a 32-byte keccak256 digest: a leaf or a node of the tree.
type Hash [32]byte

// String returns the hash as 0x-prefixed lowercase hex, as the dumps write it.
func (h Hash) String() string {
	var b [66]byte
	b[0], b[1] = '0', 'x'
	hex.Encode(b[2:], h[:])
	return string(b[:])
}

// MarshalText writes the hash as 0x-prefixed lowercase hex.
func (h Hash) MarshalText() ([]byte, error) { return []byte(h.String()), nil }

// UnmarshalText reads a 0x-prefixed hex hash of exactly 32 bytes (any case).
func (h *Hash) UnmarshalText(b []byte) error {
	p, err := ParseHash(string(b))
	if err != nil {
		return err
	}
	*h = p
	return nil
}

// ParseHash parses a 0x-prefixed, 64-digit hex string (any case).
func ParseHash(s string) (Hash, error) {
	var h Hash
	if len(s) != 66 || s[0] != '0' || (s[1] != 'x' && s[1] != 'X') {
		return h, cairn.Errorf(cairn.EINVALID, "merkle: %q is not a 0x-prefixed 32-byte hex hash", clip(s))
	}
	if _, err := hex.Decode(h[:], []byte(s[2:])); err != nil {
		return h, cairn.Errorf(cairn.EINVALID, "merkle: %q is not a 0x-prefixed 32-byte hex hash", clip(s))
	}
	return h, nil
}

// Compare orders hashes as unsigned 256-bit big-endian numbers, which is
// how OpenZeppelin sorts leaves and pairs.
func (h Hash) Compare(o Hash) int { return bytes.Compare(h[:], o[:]) }

// clip shortens untrusted input quoted in an error message.
func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// keccakState is the reusable sponge golang.org/x/crypto/sha3 returns:
// Read squeezes the digest without the copy and allocation Sum makes.
type keccakState interface {
	hash.Hash
	Read([]byte) (int, error)
	MarshalBinary() ([]byte, error) // the state after whole blocks: midstate
}

// hasher hashes without allocating: one sponge reused across calls. It is
// not safe for concurrent use; each goroutine takes its own.
type hasher struct {
	st      keccakState
	buf     [64]byte
	out     Hash   // digest buffer: reading into a stack value would escape
	scratch []byte // abi encoding buffer, reused

	x4       *sponge4 // the four-way sponge, made on first use
	prefixes prefixCache
	pairBuf  [4][64]byte
	lanes    [4][]byte // four leaf encodings, reused
}

func newHasher() *hasher {
	return &hasher{st: sha3.NewLegacyKeccak256().(keccakState)}
}

var hasherPool = sync.Pool{New: func() any { return newHasher() }}

// sum returns keccak256(p).
func (k *hasher) sum(p []byte) Hash {
	k.st.Reset()
	k.st.Write(p)
	k.st.Read(k.out[:])
	return k.out
}

// leaf returns keccak256(keccak256(p)), the StandardMerkleTree leaf of an
// encoding p; the inner digest never leaves the hasher.
func (k *hasher) leaf(p []byte) Hash {
	k.sum(p)
	k.st.Reset()
	k.st.Write(k.out[:])
	k.st.Read(k.out[:])
	return k.out
}

// pair returns keccak256(min(a,b) || max(a,b)): OpenZeppelin's node hash
// (standardNodeHash, and MerkleProof.sol's commutative keccak256).
func (k *hasher) pair(a, b *Hash) Hash {
	if bytes.Compare(a[:], b[:]) > 0 {
		a, b = b, a
	}
	copy(k.buf[:32], a[:])
	copy(k.buf[32:], b[:])
	return k.sum(k.buf[:])
}

// Keccak256 returns keccak256(p).
func Keccak256(p []byte) Hash {
	k := hasherPool.Get().(*hasher)
	h := k.sum(p)
	hasherPool.Put(k)
	return h
}

// HashPair returns the node hash of two children: keccak256 of the two
// concatenated in ascending order.
func HashPair(a, b Hash) Hash {
	k := hasherPool.Get().(*hasher)
	h := k.pair(&a, &b)
	hasherPool.Put(k)
	return h
}
