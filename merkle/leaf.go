package merkle

import (
	"encoding/binary"
	"slices"
)

// StandardLeafHash returns a StandardMerkleTree leaf:
// keccak256(keccak256(abi.encode(types, values))).
func StandardLeafHash(types []string, values []any) (Hash, error) {
	k := hasherPool.Get().(*hasher)
	defer hasherPool.Put(k)
	return k.standardLeaf(types, values)
}

func (k *hasher) standardLeaf(types []string, values []any) (Hash, error) {
	enc, err := AbiEncode(k.scratch[:0], types, values)
	k.scratch = enc[:0]
	if err != nil {
		return Hash{}, err
	}
	return k.leaf(enc), nil
}

// LeafHashStrings2 returns StandardLeafHash([]string{"string", "string"},
// []any{a, b}) without allocating: the leaf of cairn's address list, with a
// the address family and b the canonical address.
func LeafHashStrings2(a, b string) Hash {
	k := hasherPool.Get().(*hasher)
	h := k.strings2(a, b)
	hasherPool.Put(k)
	return h
}

// strings2 encodes (string a, string b) into the hasher's scratch buffer:
// two offset words, then each string as a length word and its bytes padded
// to a multiple of 32.
func (k *hasher) strings2(a, b string) Hash { return strings2(k, a, b) }

func strings2[B string | []byte](k *hasher, a string, b B) Hash {
	k.scratch = appendStrings2(k.scratch[:0], a, b)
	return k.leaf(k.scratch)
}

// appendStrings2 appends abi.encode(string a, string b) to dst.
func appendStrings2[B string | []byte](dst []byte, a string, b B) []byte {
	pa, pb := pad32(len(a)), pad32(len(b))
	size := 64 + 32 + pa + 32 + pb
	dst = slices.Grow(dst, size)
	e := dst[len(dst) : len(dst)+size]
	clear(e)
	binary.BigEndian.PutUint64(e[24:32], 64)
	binary.BigEndian.PutUint64(e[56:64], uint64(64+32+pa))
	binary.BigEndian.PutUint64(e[88:96], uint64(len(a)))
	copy(e[96:], a)
	o := 96 + pa
	binary.BigEndian.PutUint64(e[o+24:o+32], uint64(len(b)))
	copy(e[o+32:], b)
	return dst[:len(dst)+size]
}

func pad32(n int) int { return (n + 31) &^ 31 }

// LeafHashesStrings2 returns LeafHashStrings2 of every pair, hashed on all
// CPUs for large inputs.
func LeafHashesStrings2(pairs [][2]string) []Hash {
	return leafHashes(len(pairs), func(i int, dst, _ []byte) []byte {
		return appendStrings2(dst, pairs[i][0], pairs[i][1])
	})
}

// LeafHashesStrings2Func returns LeafHashStrings2 of n pairs, pair i given
// by pair(i, scratch): a string and the bytes of the second string, which
// pair may append to scratch (a buffer of its own per goroutine). Hashed
// on all CPUs for large inputs; pair is called concurrently.
func LeafHashesStrings2Func(n int, pair func(i int, scratch []byte) (string, []byte)) []Hash {
	return leafHashes(n, strings2Enc(pair))
}

// BuildStrings2Func is Build(LeafHashesStrings2Func(n, pair), true), the
// leaves hashed into the tree's own slots (BuildSortedFunc).
func BuildStrings2Func(n int, pair func(i int, scratch []byte) (string, []byte)) (*Tree, error) {
	return BuildSortedFunc(n, func(leaves []Hash) { leafHashesInto(leaves, strings2Enc(pair)) })
}

func strings2Enc(pair func(i int, scratch []byte) (string, []byte)) func(i int, dst, scratch []byte) []byte {
	return func(i int, dst, scratch []byte) []byte {
		a, b := pair(i, scratch)
		return appendStrings2(dst, a, b)
	}
}

// LeafHashStrings3 returns StandardLeafHash([]string{"string", "string",
// "string"}, []any{a, b, c}) without allocating: the leaf of cairn's
// exclusion trees, a gap (family, low, high) between two consecutive
// listed addresses.
func LeafHashStrings3(a, b, c string) Hash {
	k := hasherPool.Get().(*hasher)
	h := strings3(k, a, []byte(b), []byte(c))
	hasherPool.Put(k)
	return h
}

// strings3 encodes (string a, string b, string c) into the hasher's
// scratch buffer, as strings2 does for two.
func strings3(k *hasher, a string, b, c []byte) Hash {
	k.scratch = appendStrings3(k.scratch[:0], a, b, c)
	return k.leaf(k.scratch)
}

// appendStrings3 appends abi.encode(string a, string b, string c) to dst.
func appendStrings3(dst []byte, a string, b, c []byte) []byte {
	pa, pb, pc := pad32(len(a)), pad32(len(b)), pad32(len(c))
	size := 96 + 32 + pa + 32 + pb + 32 + pc
	dst = slices.Grow(dst, size)
	e := dst[len(dst) : len(dst)+size]
	clear(e)
	ob := 96 + 32 + pa
	oc := ob + 32 + pb
	binary.BigEndian.PutUint64(e[24:32], 96)
	binary.BigEndian.PutUint64(e[56:64], uint64(ob))
	binary.BigEndian.PutUint64(e[88:96], uint64(oc))
	binary.BigEndian.PutUint64(e[120:128], uint64(len(a)))
	copy(e[128:], a)
	binary.BigEndian.PutUint64(e[ob+24:ob+32], uint64(len(b)))
	copy(e[ob+32:], b)
	binary.BigEndian.PutUint64(e[oc+24:oc+32], uint64(len(c)))
	copy(e[oc+32:], c)
	return dst[:len(dst)+size]
}

// LeafHashesStrings3Func returns LeafHashStrings3 of n triples, triple i
// given by triple(i, scratch): a string and the bytes of the other two,
// which triple may append to scratch (a buffer of its own per goroutine).
// Hashed on all CPUs for large inputs; triple is called concurrently.
func LeafHashesStrings3Func(n int, triple func(i int, scratch []byte) (string, []byte, []byte)) []Hash {
	return leafHashes(n, strings3Enc(triple))
}

// BuildStrings3Func is Build(LeafHashesStrings3Func(n, triple), true),
// the leaves hashed into the tree's own slots (BuildSortedFunc).
func BuildStrings3Func(n int, triple func(i int, scratch []byte) (string, []byte, []byte)) (*Tree, error) {
	return BuildSortedFunc(n, func(leaves []Hash) { leafHashesInto(leaves, strings3Enc(triple)) })
}

func strings3Enc(triple func(i int, scratch []byte) (string, []byte, []byte)) func(i int, dst, scratch []byte) []byte {
	return func(i int, dst, scratch []byte) []byte {
		a, b, c := triple(i, scratch)
		return appendStrings3(dst, a, b, c)
	}
}

// leafHashes returns the StandardMerkleTree leaves of n encodings, leaf
// i's appended to dst by enc(i, dst, scratch) (scratch: a buffer of enc's
// own per goroutine). Hashed four at a time, on all CPUs for large inputs;
// enc is called concurrently.
func leafHashes(n int, enc func(i int, dst, scratch []byte) []byte) []Hash {
	out := make([]Hash, n)
	leafHashesInto(out, enc)
	return out
}

// leafHashesInto is leafHashes into out: leaf i at out[i].
func leafHashesInto(out []Hash, enc func(i int, dst, scratch []byte) []byte) {
	forChunks(0, len(out), parallelNodes, func(lo, hi int) {
		k := hasherPool.Get().(*hasher)
		var scratch [256]byte
		for i := lo; i < hi; i += 4 {
			m := min(4, hi-i)
			for l := range m {
				k.lanes[l] = enc(i+l, k.lanes[l][:0], scratch[:0])
			}
			k.leaves(k.lanes[:m], out[i:i+m])
		}
		hasherPool.Put(k)
	})
}
