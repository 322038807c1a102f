package merkle

import (
	"fmt"
	"testing"
)

// syntheticPairs generates the benchmark leaves; bench/merkle/bench.js
// generates the same ones: splitmix64 seeded with 42, every fourth leaf
// ("bitcoin", "bc1q" + 38 bech32 characters), the others ("evm", "0x" + 40
// hex digits).
func syntheticPairs(n int) [][2]string {
	const bech32 = "qpzry9x8gf2tvdw0s3jn54khce6mua7l"
	state := uint64(42)
	next := func() uint64 {
		state += 0x9e3779b97f4a7c15
		z := state
		z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
		z = (z ^ (z >> 27)) * 0x94d049bb133111eb
		return z ^ (z >> 31)
	}
	out := make([][2]string, n)
	for i := range out {
		if i%4 == 3 {
			b := []byte("bc1q")
			for w := range 4 {
				x, chars := next(), 12
				if w == 3 {
					chars = 2
				}
				for j := range chars {
					b = append(b, bech32[(x>>(5*j))&31])
				}
			}
			out[i] = [2]string{"bitcoin", string(b)}
		} else {
			a, b, c := next(), next(), next()
			out[i] = [2]string{"evm", fmt.Sprintf("0x%016x%016x%08x", a, b, c>>32)}
		}
	}
	return out
}

// TestSyntheticRootsMatchJS pins the roots bench/merkle/bench.js printed
// with @openzeppelin/merkle-tree 1.0.8 for the synthetic leaf sets.
func TestSyntheticRootsMatchJS(t *testing.T) {
	for _, tc := range []struct {
		n    int
		root string
	}{
		{1000, "0x1f320664cb4934cf90927f85174a616c303a38c336e03a44c5094219bf4ff19b"},
		{100000, "0x890439b7b431f414e5c69b39be4a033ef984e48119dc566105ed5f090c321da1"},
	} {
		t.Run(fmt.Sprint(tc.n), func(t *testing.T) {
			pairs := syntheticPairs(tc.n)
			if pairs[0] != [2]string{"evm", "0xbdd732262feb6e9528efe333b266f10347526757"} ||
				pairs[3] != [2]string{"bitcoin", "bc1qwaa7h5q8hx4uldxk4mffjrag795v3zep2yduxh"} {
				t.Fatalf("generator differs from bench.js: %v %v", pairs[0], pairs[3])
			}
			st, err := NewStrings2Tree(pairs, true)
			if err != nil {
				t.Fatal(err)
			}
			if got := st.Root().String(); got != tc.root {
				t.Errorf("root %s, want %s", got, tc.root)
			}
		})
	}
}
