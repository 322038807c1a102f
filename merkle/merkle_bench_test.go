package merkle

import (
	"fmt"
	"testing"

	"github.com/ethereum/go-ethereum/crypto/keccak"
)

var benchSizes = []int{100_000, 1_000_000}

// BenchmarkBuild is the Go side of bench/merkle/bench.js: leaf hashing,
// sorting and tree building over the synthetic ["string","string"] pairs.
func BenchmarkBuild(b *testing.B) {
	for _, n := range benchSizes {
		pairs := syntheticPairs(n)
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			var root Hash
			for b.Loop() {
				st, err := NewStrings2Tree(pairs, true)
				if err != nil {
					b.Fatal(err)
				}
				root = st.Root()
			}
			b.Logf("n=%d root=%s", n, root)
		})
	}
}

// BenchmarkBuildStages splits a build into its stages.
func BenchmarkBuildStages(b *testing.B) {
	pairs := syntheticPairs(1_000_000)
	leaves := LeafHashesStrings2(pairs)
	b.Run("LeafHashes/1000000", func(b *testing.B) {
		for b.Loop() {
			LeafHashesStrings2(pairs)
		}
	})
	b.Run("SortAndHash/1000000", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(leaves, true); err != nil {
				b.Fatal(err)
			}
		}
	})
	b.Run("HashOnly/1000000", func(b *testing.B) {
		for b.Loop() {
			if _, err := Build(leaves, false); err != nil {
				b.Fatal(err)
			}
		}
	})
}

// BenchmarkProof is the per-address proof an API call makes: hash the
// (family, address) leaf, find it, append its proof.
func BenchmarkProof(b *testing.B) {
	for _, n := range benchSizes {
		pairs := syntheticPairs(n)
		st, err := NewStrings2Tree(pairs, true)
		if err != nil {
			b.Fatal(err)
		}
		t := st.Tree()
		b.Run(fmt.Sprint(n), func(b *testing.B) {
			buf := make([]Hash, 0, 32)
			i := 0
			for b.Loop() {
				p := pairs[i%n]
				i += 7919
				v, ok := t.LeafIndex(LeafHashStrings2(p[0], p[1]))
				if !ok {
					b.Fatal("leaf not found")
				}
				if buf, err = t.AppendProof(buf[:0], v); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}

func BenchmarkLeafHashStrings2(b *testing.B) {
	for b.Loop() {
		LeafHashStrings2("evm", "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b")
	}
}

func BenchmarkStandardLeafHashGeneric(b *testing.B) {
	v := []any{"evm", "0xd882cfc20f52f2599d84b8e8d58c7fb62cfe344b"}
	for b.Loop() {
		if _, err := StandardLeafHash(Strings2, v); err != nil {
			b.Fatal(err)
		}
	}
}

// BenchmarkKeccakPair compares golang.org/x/crypto/sha3's legacy keccak
// (used) with go-ethereum's crypto/keccak on the 64-byte node input.
func BenchmarkKeccakPair(b *testing.B) {
	var in [64]byte
	var out Hash
	b.Run("GoEthereum", func(b *testing.B) {
		k := &hasher{st: keccak.NewLegacyKeccak256().(keccakState)}
		for b.Loop() {
			out = k.sum(in[:])
		}
	})
	b.Run("XCryptoSha3", func(b *testing.B) {
		k := newHasher()
		for b.Loop() {
			out = k.sum(in[:])
		}
	})
	// Four pairs a loop, as a tree's build hashes them (circl's four-way
	// permutation where the CPU has AVX2): ns/op is per four nodes.
	b.Run("FourWay", func(b *testing.B) {
		k := newHasher()
		var h [4]Hash
		l, r := [4]*Hash{&h[0], &h[1], &h[2], &h[3]}, [4]*Hash{&h[3], &h[2], &h[1], &h[0]}
		var o [4]Hash
		for b.Loop() {
			k.pairs4(&l, &r, &o)
		}
		out = o[0]
	})
	_ = out
}
