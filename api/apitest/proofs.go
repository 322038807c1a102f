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

// VerifyBatch checks every proof and the multiproof of a batch answer
// against the published root.
func VerifyBatch(t testing.TB, r *Response, root merkle.Hash, wantListed int) {
	t.Helper()
	enc := []string{"string", "string"}
	if got := HexBytes32(t, r.Str("root")); got != root || HexBytes32(t, r.Str("sanctionsRoot")) != root {
		t.Fatalf("batch root %x, published %x", got, root)
	}
	roots := map[any]merkle.Hash{"sanctions": root, "community": HexBytes32(t, r.Str("communityRoot")), nil: root}
	community := map[string]bool{}
	for i, it := range r.JSON["results"].([]any) {
		item := it.(map[string]any)
		if item["valid"] != true {
			continue
		}
		// Each proof is against the root of its class.
		classRoot := roots[item["class"]]
		if HexBytes32(t, item["root"].(string)) != classRoot || (item["class"] == "sanctions") != (item["sanctioned"] == true) ||
			(item["class"] != nil) != (item["listed"] == true) {
			t.Fatalf("item %d: class %v, root %v, sanctioned %v, listed %v", i, item["class"], item["root"], item["sanctioned"], item["listed"])
		}
		if item["class"] == "community" {
			community[item["family"].(string)+" "+item["canonicalAddress"].(string)] = true
		}
		leaf := HexBytes32(t, item["leaf"].(string))
		if want := merkle.LeafHashStrings2(item["family"].(string), item["canonicalAddress"].(string)); leaf != want {
			t.Fatalf("item %d: leaf %x, want %x", i, leaf, want)
		}
		proof := ProofHashes(t, item["proof"])
		if ok := merkle.Verify(classRoot, leaf, proof); ok != (item["listed"] == true) {
			t.Fatalf("item %d (listed %v): proof verifies %v", i, item["listed"], ok)
		}
		if item["listed"] == true {
			if ok, err := merkle.VerifyStandard(classRoot, enc, []any{item["family"], item["canonicalAddress"]}, proof); err != nil || !ok {
				t.Fatalf("item %d: standard proof does not verify: %v", i, err)
			}
		}
		// Absence from the sanctions tree is proven exactly when the
		// address is not in it.
		if e, has := item["exclusionProof"]; has != (item["class"] != "sanctions") {
			t.Fatalf("item %d (class %v): exclusionProof %v", i, item["class"], e)
		} else if has {
			VerifyExclusion(t, e, item["family"].(string), item["canonicalAddress"].(string), HexBytes32(t, r.Str("exclusionRoot")))
		}
	}
	VerifyMultiproof(t, r.JSON["multiproof"].(map[string]any), root, wantListed)
	VerifyMultiproof(t, r.JSON["communityMultiproof"].(map[string]any), roots["community"], len(community))
}

// VerifyMultiproof checks a multiproof of a batch answer against root.
func VerifyMultiproof(t testing.TB, mp map[string]any, root merkle.Hash, wantListed int) {
	t.Helper()
	if n := len(mp["values"].([]any)); n != wantListed {
		t.Fatalf("multiproof of %d values, want %d", n, wantListed)
	}
	if wantListed == 0 && root == (merkle.Hash{}) {
		return // an empty tree: nothing to prove
	}
	VerifyStandardMultiproof(t, mp, root, []string{"string", "string"})
}

// VerifyStandardMultiproof checks a multiproof object of an answer
// (values, proof, proofFlags) against root, its values of the encoding.
func VerifyStandardMultiproof(t testing.TB, mp map[string]any, root merkle.Hash, encoding []string) {
	t.Helper()
	var values [][]any
	for _, v := range mp["values"].([]any) {
		values = append(values, v.([]any))
	}
	var flags []bool
	for _, f := range mp["proofFlags"].([]any) {
		flags = append(flags, f.(bool))
	}
	if ok, err := merkle.VerifyStandardMultiProof(root, encoding, values, ProofHashes(t, mp["proof"]), flags); err != nil || !ok {
		t.Fatalf("multiproof does not verify: %v", err)
	}
}
