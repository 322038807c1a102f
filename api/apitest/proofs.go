package apitest

import (
	"encoding/hex"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/merkle"
)

// HexBytes32 reads a bytes32 in hex (0x-prefixed or not).
func HexBytes32(t testing.TB, s string) merkle.Hash {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != 32 {
		t.Fatalf("not bytes32: %q", s)
	}
	var h merkle.Hash
	copy(h[:], b)
	return h
}

// ProofHashes reads a proof: a list of bytes32 in hex.
func ProofHashes(t testing.TB, v any) []merkle.Hash {
	t.Helper()
	var out []merkle.Hash
	for _, p := range v.([]any) {
		out = append(out, HexBytes32(t, p.(string)))
	}
	return out
}

// ExclusionEncoding is the leaf encoding of the exclusion tree: a gap
// (family, low, high).
var ExclusionEncoding = []string{"string", "string", "string"}

// VerifyExclusion checks an exclusionProof object of an answer: its value
// is (family, low, high) around canon with "" at an open end, low and
// high are the value with an EVM open end written as 0x00..00 / 0xff..ff,
// its leaf is the value's leaf, and its proof leads to root.
func VerifyExclusion(t testing.TB, v any, family, canon string, root merkle.Hash) {
	t.Helper()
	e, ok := v.(map[string]any)
	if !ok {
		t.Fatalf("%s %s: no exclusion proof (%v)", family, canon, v)
	}
	val := e["value"].([]any)
	low, high := val[1].(string), val[2].(string)
	if val[0] != family || !(low == "" || low < canon) || !(high == "" || canon < high) {
		t.Fatalf("%s %s: the gap %v does not hold it", family, canon, val)
	}
	wantLow, wantHigh := low, high
	if family == "evm" && low == "" {
		wantLow = "0x0000000000000000000000000000000000000000"
	}
	if family == "evm" && high == "" {
		wantHigh = "0xffffffffffffffffffffffffffffffffffffffff"
	}
	if e["low"] != wantLow || e["high"] != wantHigh {
		t.Fatalf("%s %s: low %v high %v for the gap %v", family, canon, e["low"], e["high"], val)
	}
	if HexBytes32(t, e["root"].(string)) != root {
		t.Fatalf("%s %s: root %v, want %s", family, canon, e["root"], root)
	}
	if leaf := HexBytes32(t, e["leaf"].(string)); leaf != merkle.LeafHashStrings3(family, low, high) {
		t.Fatalf("%s %s: leaf %s is not the gap's", family, canon, leaf)
	}
	ok, err := merkle.VerifyStandard(root, ExclusionEncoding, []any{family, low, high}, ProofHashes(t, e["proof"]))
	if err != nil || !ok {
		t.Fatalf("%s %s: the exclusion proof does not verify: %v", family, canon, err)
	}
}
