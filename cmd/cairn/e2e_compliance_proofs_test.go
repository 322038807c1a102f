package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
)

func TestE2EMerkleProofBatch(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	batch := []map[string]any{
		{"address": tornado, "chain": "ethereum"},
		{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"},
		{"address": "bogus", "chain": "bitcoin"},
		{"address": strings.ToLower(tornado), "chain": "base"}, // the same leaf again
	}
	r := ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).must(t, 200)
	root := hexBytes32(t, r.str("root"))
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
				proof = append(proof, hexBytes32(t, p.(string)))
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
		proof = append(proof, hexBytes32(t, p.(string)))
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
	ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []any{}}).problem(t, 400, cairn.EINVALID)
	ts.do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}).problem(t, 400, cairn.EINVALID)
}

func TestE2EVerifyProofCommand(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	dir := t.TempDir()
	check := func(name string, body []byte) (int, string) {
		path := filepath.Join(dir, name)
		os.WriteFile(path, body, 0o600)
		var out, errOut strings.Builder
		code := Run(t.Context(), []string{"verify-proof", path}, &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	mp := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200)
	if code, out := check("proof.json", mp.Body); code != 0 || !strings.Contains(out, "OK: (evm, ") {
		t.Fatalf("valid proof: %d %s", code, out)
	}
	tampered := strings.Replace(string(mp.Body), strings.ToLower(tornado[2:]), "0000000000000000000000000000000000000001", 1)
	if code, out := check("tampered.json", []byte(tampered)); code != 1 || !strings.Contains(out, "FAIL") {
		t.Fatalf("tampered proof accepted: %d %s", code, out)
	}
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	doc := ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), a.Key, nil).must(t, 200)
	if code, out := check("screening.json", doc.Body); code != 0 || !strings.Contains(out, "OK: resultsHash") {
		t.Fatalf("screening proof: %d %s", code, out)
	}
	forged := strings.Replace(string(doc.Body), `"status":"sanctioned"`, `"status":"clear"`, 1)
	if code, _ := check("forged.json", []byte(forged)); code != 1 {
		t.Fatal("a forged screening result verified")
	}
	if code, _ := check("empty.json", []byte(`{}`)); code != 1 {
		t.Fatal("an empty document verified")
	}
	// A listing claimed without its proof fails; so does a result whose
	// status its matches contradict (hash recomputed).
	var claim map[string]any
	json.Unmarshal(mp.Body, &claim)
	claim["proof"] = []any{}
	noProof, _ := json.Marshal(claim)
	if code, out := check("no-proof.json", noProof); code != 1 || !strings.Contains(out, "holds no proof") {
		t.Fatalf("a listing without its proof verified: %d %s", code, out)
	}
	// A lone leaf made its own root, the proof emptied: it proves nothing
	// offline.
	claim["root"] = claim["leaf"]
	loneLeaf, _ := json.Marshal(claim)
	if code, out := check("lone-leaf.json", loneLeaf); code != 1 || !strings.Contains(out, "is the leaf itself") {
		t.Fatalf("a lone leaf as its own root verified: %d %s", code, out)
	}
	var whole map[string]json.RawMessage
	json.Unmarshal(doc.Body, &whole)
	var rs []map[string]any
	json.Unmarshal(whole["results"], &rs)
	rs[0]["status"] = "flagged" // its match is gov_sdn's
	rb, _ := json.Marshal(rs)
	sum0 := sha256.Sum256(rb)
	whole["results"], whole["resultsHash"] = rb, json.RawMessage(`"`+hex.EncodeToString(sum0[:])+`"`)
	relabelled, _ := json.Marshal(whole)
	if code, out := check("relabelled.json", relabelled); code != 1 || !strings.Contains(out, "agrees") && !strings.Contains(out, "is \"flagged\"") {
		t.Fatalf("a result relabelled against its matches verified: %d %s", code, out)
	}

	// Clear results are proven: the proof of an unlisted address and a
	// screening with clear results verify, with their exclusion proofs.
	clearAddr := "0x1111111111111111111111111111111111111111"
	cp := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+clearAddr, a.Key, nil).must(t, 200)
	if code, out := check("clear-proof.json", cp.Body); code != 0 || !strings.Contains(out, "is not in the sanctions tree") {
		t.Fatalf("clear proof: %d %s", code, out)
	}
	// A gap widened or moved no longer verifies.
	var gap struct {
		ExclusionProof struct {
			Value [3]string `json:"value"`
		} `json:"exclusionProof"`
	}
	json.Unmarshal(cp.Body, &gap)
	widened := strings.Replace(string(cp.Body), `"`+gap.ExclusionProof.Value[2]+`"]`, `"0xffffffffffffffffffffffffffffffffffffffff"]`, 1)
	if code, out := check("widened.json", []byte(widened)); code != 1 || !strings.Contains(out, "FAIL") {
		t.Fatalf("a widened gap verified: %d %s", code, out)
	}
	s = ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
		{"address": tornado, "chain": "ethereum"}, {"address": clearAddr, "chain": "ethereum"}, {"address": "1BoatSLRHtKNngkdXEeobR76b53LETtpyT", "chain": "bitcoin"}}}).must(t, 200)
	doc = ts.do(t, "GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), a.Key, nil).must(t, 200)
	if code, out := check("clear-screening.json", doc.Body); code != 0 || !strings.Contains(out, "2 result(s) proven absent from the sanctions tree") {
		t.Fatalf("screening with clear results: %d %s", code, out)
	}
	// A sanctioned result rewritten as clear, its matches dropped and
	// the results hash recomputed, fails: it lies in no gap.
	var parts map[string]json.RawMessage
	json.Unmarshal(doc.Body, &parts)
	var results []map[string]any
	json.Unmarshal(parts["results"], &results)
	results[0]["status"], results[0]["matches"] = "clear", []any{}
	rewritten, _ := json.Marshal(results)
	sum := sha256.Sum256(rewritten)
	parts["results"], parts["resultsHash"] = rewritten, json.RawMessage(`"`+hex.EncodeToString(sum[:])+`"`)
	flipped, _ := json.Marshal(parts)
	if code, out := check("flipped.json", flipped); code != 1 || !strings.Contains(out, "lies in no gap") {
		t.Fatalf("a sanctioned result rewritten as clear verified: %d %s", code, out)
	}
	// A document whose exclusion proofs were dropped fails: its clear
	// results claim what it does not prove.
	json.Unmarshal(doc.Body, &parts)
	parts["exclusionProofs"] = json.RawMessage(`{}`)
	dropped, _ := json.Marshal(parts)
	if code, out := check("dropped.json", dropped); code != 1 || !strings.Contains(out, "is not proven") {
		t.Fatalf("a document without its exclusion proofs verified: %d %s", code, out)
	}
}

// TestE2EProofOfAnotherDeveloper: a screening proof is for independent
// verification (spec 4.11): anyone who has its id reads it, with or
// without credentials (the random id is the capability); an unknown id is
// a 404.
func TestE2EProofOfAnotherDeveloper(t *testing.T) {
	ts, _ := complianceServer(t)
	a, b := ts.register(t, ""), ts.register(t, "")
	s := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(2)}).must(t, 200)
	id := s.JSON["proof"].(map[string]any)["screeningId"].(string)
	checkResultsHash(t, ts, b.Key, s)
	if p := ts.do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).must(t, 200); p.str("screeningId") != id {
		t.Fatalf("proof read without credentials: %s", p.Body)
	}
	if id[14] != '4' {
		t.Fatalf("screening id %s is not a random (version 4) UUID", id)
	}
	for _, bad := range []string{"x", cairn.NewID(), strings.Repeat("a", 3000), "%00", strings.ToUpper(id)} {
		ts.do(t, "GET", "/v1/compliance/proofs/"+bad, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	}
	if ts.balance(t, b.Key) != 100 {
		t.Fatal("reading a proof was charged")
	}
}
