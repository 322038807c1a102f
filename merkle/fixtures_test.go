package merkle

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"reflect"
	"slices"
	"strings"
	"testing"
)

func readFile(t *testing.T, name string) []byte {
	t.Helper()
	b, err := os.ReadFile(filepath.Join("testdata", name))
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func mustHash(t *testing.T, s string) Hash {
	t.Helper()
	h, err := ParseHash(s)
	if err != nil {
		t.Fatal(err)
	}
	return h
}

func hexes(hs []Hash) []string {
	out := make([]string, len(hs))
	for i, h := range hs {
		out[i] = h.String()
	}
	return out
}

// TestOZDumps loads each official OpenZeppelin dump, dumps it back byte for
// byte, and rebuilds it from its values with the same sortLeaves.
func TestOZDumps(t *testing.T) {
	for _, tc := range []struct {
		file   string
		sorted bool
	}{
		{"standard-v1.sorted.1_0_6.json", true},
		{"standard-v1.unsorted.1_0_6.json", false},
		{"simple-v1.sorted.1_0_6.json", true},
		{"simple-v1.unsorted.1_0_6.json", false},
	} {
		t.Run(tc.file, func(t *testing.T) {
			want := bytes.TrimSpace(readFile(t, filepath.Join("oz_dumps", tc.file)))
			var got, rebuilt []byte
			if bytes.Contains(want, []byte(`"standard-v1"`)) {
				st, err := LoadStandard(want)
				if err != nil {
					t.Fatal(err)
				}
				if got, err = st.Dump(); err != nil {
					t.Fatal(err)
				}
				values := [][]any{{"a"}, {"b"}, {"c"}, {"d"}, {"e"}, {"f"}}
				nt, err := NewStandardTree(values, []string{"string"}, tc.sorted)
				if err != nil {
					t.Fatal(err)
				}
				if rebuilt, err = nt.Dump(); err != nil {
					t.Fatal(err)
				}
			} else {
				st, err := LoadSimple(want)
				if err != nil {
					t.Fatal(err)
				}
				got = st.Dump()
				var d simpleDump
				if err := json.Unmarshal(want, &d); err != nil {
					t.Fatal(err)
				}
				values := make([]Hash, len(d.Values))
				for i, v := range d.Values {
					values[i] = v.Value
				}
				nt, err := NewSimpleTree(values, tc.sorted)
				if err != nil {
					t.Fatal(err)
				}
				rebuilt = nt.Dump()
			}
			if !bytes.Equal(got, want) {
				t.Errorf("re-dump differs:\n got %s\nwant %s", got, want)
			}
			if !bytes.Equal(rebuilt, want) {
				t.Errorf("rebuild differs:\n got %s\nwant %s", rebuilt, want)
			}
		})
	}
}

type addressVectors struct {
	SmallAddress struct {
		LeafEncoding []string            `json:"leafEncoding"`
		Values       []string            `json:"values"`
		Root         string              `json:"root"`
		LeafHashes   map[string]string   `json:"leafHashes"`
		Proofs       map[string][]string `json:"proofs"`
		Multiproof   struct {
			Leaves     [][]string `json:"leaves"`
			Proof      []string   `json:"proof"`
			ProofFlags []bool     `json:"proofFlags"`
		} `json:"multiproof_0_2"`
		Dump json.RawMessage `json:"dump"`
	} `json:"small_address"`
	OFACEthAll struct {
		Count        int    `json:"count"`
		Root         string `json:"root"`
		ProofOfFirst struct {
			Value string   `json:"value"`
			Proof []string `json:"proof"`
		} `json:"proof_of_first"`
	} `json:"ofac_eth_all"`
	ChainAddressStrings struct {
		LeafEncoding []string    `json:"leafEncoding"`
		Values       [][2]string `json:"values"`
		Root         string      `json:"root"`
		Proofs       []struct {
			Value    [2]string `json:"value"`
			LeafHash string    `json:"leafHash"`
			Proof    []string  `json:"proof"`
		} `json:"proofs"`
	} `json:"chain_address_strings"`
	SingleLeaf struct {
		Value string   `json:"value"`
		Root  string   `json:"root"`
		Proof []string `json:"proof"`
	} `json:"single_leaf"`
	SmallAddressUnsorted struct {
		Root string          `json:"root"`
		Dump json.RawMessage `json:"dump"`
	} `json:"small_address_unsorted"`
}

func loadVectors(t *testing.T) addressVectors {
	t.Helper()
	var v addressVectors
	if err := json.Unmarshal(readFile(t, "oz_standard_address_vectors.json"), &v); err != nil {
		t.Fatal(err)
	}
	return v
}

func values1(ss []string) [][]any {
	out := make([][]any, len(ss))
	for i, s := range ss {
		out[i] = []any{s}
	}
	return out
}

// sameJSON compares two JSON documents as values (the vector file is
// pretty-printed; our dump is compact).
func sameJSON(t *testing.T, got, want []byte) {
	t.Helper()
	var g, w any
	if err := json.Unmarshal(got, &g); err != nil {
		t.Fatal(err)
	}
	if err := json.Unmarshal(want, &w); err != nil {
		t.Fatal(err)
	}
	if !reflect.DeepEqual(g, w) {
		t.Errorf("dump differs:\n got %s\nwant %s", got, want)
	}
}

// TestLeafHashesStrings2Func: leaves given by a function hash as the same
// pairs given as strings, across the parallel threshold.
func TestLeafHashesStrings2Func(t *testing.T) {
	for _, n := range []int{0, 1, 3, parallelNodes + 5} {
		pairs := make([][2]string, n)
		for i := range pairs {
			pairs[i] = [2]string{"evm", strings.Repeat("ab", i%50)}
		}
		pair := func(i int, scratch []byte) (string, []byte) {
			return pairs[i][0], append(scratch, pairs[i][1]...)
		}
		got := LeafHashesStrings2Func(n, pair)
		want := LeafHashesStrings2(pairs)
		if !slices.Equal(got, want) {
			t.Fatalf("n=%d: leaves differ", n)
		}
		if n == 0 {
			continue
		}
		// The tree over the same leaves, hashed into its own slots.
		tr, err := BuildStrings2Func(n, pair)
		if err != nil {
			t.Fatal(err)
		}
		if ref, _ := Build(want, true); !slices.Equal(tr.Nodes(), ref.Nodes()) {
			t.Fatalf("n=%d: BuildStrings2Func's nodes differ from Build's", n)
		}
	}
}
