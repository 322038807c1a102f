package main

import (
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

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
