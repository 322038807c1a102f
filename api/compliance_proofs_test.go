package api_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/merkle"
)

func TestE2EMerkleProofBatch(t *testing.T) {
	ts, a := screenAgent(t)
	batch := []map[string]any{
		{"address": apitest.Tornado, "chain": "ethereum"},
		{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"},
		{"address": "bogus", "chain": "bitcoin"},
		{"address": strings.ToLower(apitest.Tornado), "chain": "base"}, // the same leaf again
	}
	r := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).Must(t, 200)
	root := apitest.HexBytes32(t, r.Str("root"))
	res := r.JSON["results"].([]any)
	enc := []string{"string", "string"}
	for i, want := range []bool{true, true, false, false, true} {
		item := res[i].(map[string]any)
		if item["sanctioned"] != want {
			t.Fatalf("item %d: %v", i, item)
		}
		if want {
			var proof []merkle.Hash
			for _, p := range item["proof"].([]any) {
				proof = append(proof, apitest.HexBytes32(t, p.(string)))
			}
			ok, err := merkle.VerifyStandard(root, enc, []any{item["family"], item["canonicalAddress"]}, proof)
			if err != nil || !ok {
				t.Fatalf("item %d proof does not verify", i)
			}
		}
	}
	if res[3].(map[string]any)["valid"] != false {
		t.Fatal("invalid address not marked")
	}
	mp := r.JSON["multiproof"].(map[string]any)
	var values [][]any
	for _, v := range mp["values"].([]any) {
		values = append(values, v.([]any))
	}
	var proof []merkle.Hash
	for _, p := range mp["proof"].([]any) {
		proof = append(proof, apitest.HexBytes32(t, p.(string)))
	}
	var flags []bool
	for _, f := range mp["proofFlags"].([]any) {
		flags = append(flags, f.(bool))
	}
	if len(values) != 2 {
		t.Fatalf("multiproof covers %d values, want the 2 distinct listed ones", len(values))
	}
	if ok, err := merkle.VerifyStandardMultiProof(root, enc, values, proof, flags); err != nil || !ok {
		t.Fatalf("multiproof does not verify: %v", err)
	}
	ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []any{}}).Problem(t, 400, cairn.EINVALID)
	ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": "narnia"}}}).Problem(t, 400, cairn.EINVALID)
}

// TestE2EProofOfAnotherDeveloper: a screening proof is for independent
// verification (spec 4.11): anyone who has its id reads it, with or
// without credentials (the random id is the capability); an unknown id is
// a 404.
func TestE2EProofOfAnotherDeveloper(t *testing.T) {
	ts := screenServer(t)
	a, b := ts.Register(t, ""), ts.Register(t, "")
	s := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": apitest.Addresses(2)}).Must(t, 200)
	id := s.JSON["proof"].(map[string]any)["screeningId"].(string)
	ts.CheckResultsHash(t, b.Key, s)
	if p := ts.Do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).Must(t, 200); p.Str("screeningId") != id {
		t.Fatalf("proof read without credentials: %s", p.Body)
	}
	if id[14] != '4' {
		t.Fatalf("screening id %s is not a random (version 4) UUID", id)
	}
	for _, bad := range []string{"x", cairn.NewID(), strings.Repeat("a", 3000), "%00", strings.ToUpper(id)} {
		ts.Do(t, "GET", "/v1/compliance/proofs/"+bad, b.Key, nil).Problem(t, 404, cairn.ENOTFOUND)
	}
	if ts.Balance(t, b.Key) != 100 {
		t.Fatal("reading a proof was charged")
	}
}
