package main

import (
	"encoding/hex"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/merkle"
)

const tornado = "0x8589427373D6D84E98730D7795D8F6F8731FDA16" // listed in sanctioned_addresses_ETH.txt

func complianceServer(t *testing.T) (*testServer, string) {
	t.Helper()
	dir := t.TempDir()
	list := filepath.Join(dir, "eth.txt")
	eth, err := os.ReadFile("testdata/sanctioned_addresses_ETH.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, eth, 0o600); err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, filepath.Join(dir, "data"))
	cfg.Sources = stringList{"list:ETH=" + list, "list:XBT=testdata/sanctioned_addresses_XBT.txt"}
	return startServer(t, cfg), list
}

func hexBytes32(t *testing.T, s string) merkle.Hash {
	t.Helper()
	b, err := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if err != nil || len(b) != 32 {
		t.Fatalf("not bytes32: %q", s)
	}
	var h merkle.Hash
	copy(h[:], b)
	return h
}

func TestE2EScreen(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register("")
	batch := []map[string]any{
		{"address": tornado, "chain": "ethereum"},
		{"address": strings.ToLower(tornado), "chain": "polygon"},
		{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "base"},
		{"address": "definitely-not-an-address", "chain": "bitcoin"},
	}
	r := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": batch}).must(t, 200)
	results := r.JSON["results"].([]any)
	want := []string{"sanctioned", "sanctioned", "sanctioned", "clear", "invalid_address"}
	for i, w := range want {
		if got := results[i].(map[string]any)["status"]; got != w {
			t.Errorf("result %d: %v, want %s", i, got, w)
		}
	}
	m := results[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	if m["source"] != "list:ETH" || m["category"] != "sanctions" || m["severity"] != "critical" {
		t.Fatalf("match %v", m)
	}
	rl := r.JSON["rateLimit"].(map[string]any)
	if rl["freeLimit"] != float64(10) || rl["freeRemaining"] != float64(5) || rl["billableAddresses"] != float64(0) ||
		r.Header.Get("X-RateLimit-Free-Remaining") != "5" || r.Header.Get("X-RateLimit-Billable") != "0" {
		t.Fatalf("rate limit: %v %v", rl, r.Header)
	}
	if ts.balance(a.Key) != 100 {
		t.Fatal("free addresses were charged")
	}
	t.Run("ProofStoredAndHashed", func(t *testing.T) {
		proof := r.JSON["proof"].(map[string]any)
		p := ts.do("GET", "/v1/compliance/proofs/"+proof["screeningId"].(string), a.Key, nil).must(t, 200)
		if p.str("resultsHash") != proof["resultsHash"] || p.str("merkleRoot") != proof["merkleRoot"] {
			t.Fatalf("stored proof differs: %s", p.Body)
		}
		snaps := proof["dataSnapshots"].(map[string]any)
		if s, ok := snaps["list:ETH"].(map[string]any); !ok || len(s["sha256"].(string)) != 64 {
			t.Fatalf("snapshots %v", snaps)
		}
		ts.do("GET", "/v1/compliance/proofs/"+cairn.NewID(), a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	})
	t.Run("FreeTierThenBilling", func(t *testing.T) {
		var eight []map[string]any
		for i := 0; i < 8; i++ {
			eight = append(eight, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		r := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": eight}).must(t, 200)
		rl := r.JSON["rateLimit"].(map[string]any)
		if rl["billableAddresses"] != float64(3) || rl["creditCharged"] != float64(3) || rl["freeRemaining"] != float64(0) {
			t.Fatalf("rate limit %v", rl)
		}
		if b := ts.balance(a.Key); b != 97 {
			t.Fatalf("balance %d, want 97", b)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		var many []map[string]any
		for i := 0; i < 101; i++ {
			many = append(many, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": many}).problem(t, 400, cairn.EINVALID)
		r := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}).
			problem(t, 400, cairn.EINVALID)
		if !strings.Contains(r.str("detail"), "narnia") {
			t.Fatalf("unknown chain not named: %s", r.Body)
		}
		ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []any{}}).problem(t, 400, cairn.EINVALID)
		if b := ts.balance(a.Key); b != 97 {
			t.Fatalf("balance %d after rejected requests, want 97", b)
		}
	})
	t.Run("DeveloperJWTAnd402", func(t *testing.T) {
		b := ts.register("")
		var out, errOut strings.Builder
		if code := Run(t.Context(), []string{"token", "--developer-id", b.DeveloperID, "--data-dir", ts.m.Config.DataDir}, &out, &errOut, func(string) string { return "" }); code != 0 {
			t.Fatalf("token: %s", errOut.String())
		}
		tok := strings.TrimSpace(out.String())
		ts.do("POST", "/v1/admin/credits", admin, map[string]any{"developerId": b.DeveloperID, "amount": -95, "reason": "test"}).must(t, 200)
		var fifteen []map[string]any
		for i := 0; i < 15; i++ {
			fifteen = append(fifteen, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		r := ts.do("POST", "/v1/compliance/screen", tok, map[string]any{"addresses": fifteen}).must(t, 200)
		if r.JSON["rateLimit"].(map[string]any)["creditCharged"] != float64(5) || ts.balance(b.Key) != 0 {
			t.Fatalf("JWT billing: %s", r.Body)
		}
		ts.do("POST", "/v1/compliance/screen", tok, map[string]any{"addresses": fifteen[:1]}).problem(t, 402, cairn.EPAYMENT)
		tx := ts.do("GET", "/v1/billing/transactions?limit=1", tok, nil).must(t, 200)
		if e := tx.JSON["transactions"].([]any)[0].(map[string]any); e["operation"] != "compliance.screen" || e["amount"] != float64(-5) {
			t.Fatalf("ledger entry of the screening: %v", e)
		}
	})
}

func TestE2EMerkleEndpoints(t *testing.T) {
	ts, list := complianceServer(t)
	a := ts.register("")
	root := ts.do("GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if root.JSON["anchor"].(map[string]any)["status"] != "disabled" || root.num("listVersion") != 1 || root.num("leafCount") < 500 {
		t.Fatalf("root: %s", root.Body)
	}
	r := ts.do("GET", "/v1/compliance/merkle-proof?chain=arbitrum&address="+tornado, a.Key, nil).must(t, 200)
	if r.JSON["sanctioned"] != true || r.str("root") != root.str("root") {
		t.Fatalf("proof: %s", r.Body)
	}
	var proof []merkle.Hash
	for _, p := range r.JSON["proof"].([]any) {
		proof = append(proof, hexBytes32(t, p.(string)))
	}
	ok, err := merkle.VerifyStandard(hexBytes32(t, root.str("root")), []string{"string", "string"}, []any{"evm", strings.ToLower(tornado)}, proof)
	if err != nil || !ok {
		t.Fatalf("API proof does not verify against the published root: %v", err)
	}
	r = ts.do("GET", "/v1/compliance/merkle-proof?chain=ethereum&address=0x0000000000000000000000000000000000000001", a.Key, nil).must(t, 200)
	if r.JSON["sanctioned"] != false || len(r.JSON["proof"].([]any)) != 0 {
		t.Fatalf("unlisted: %s", r.Body)
	}
	ts.do("GET", "/v1/compliance/merkle-proof?chain=ethereum&address=zzz", a.Key, nil).problem(t, 400, cairn.EINVALID)
	ts.do("GET", "/v1/compliance/merkle-proof?chain=narnia&address="+tornado, a.Key, nil).problem(t, 400, cairn.EINVALID)

	t.Run("DelistingViaAdminIngest", func(t *testing.T) {
		eth, _ := os.ReadFile(list)
		lines := strings.Split(strings.TrimSpace(string(eth)), "\n")
		var kept []string
		for _, l := range lines {
			if !strings.EqualFold(strings.TrimSpace(l), tornado) {
				kept = append(kept, l)
			}
		}
		if len(kept) != len(lines)-1 {
			t.Fatal("fixture does not list the address once")
		}
		os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600)
		ts.do("POST", "/v1/admin/ingest", "", nil).problem(t, 401, cairn.EUNAUTHORIZED)
		res := ts.do("POST", "/v1/admin/ingest", admin, nil).must(t, 200)
		if res.num("listVersion") != 2 || res.str("root") == root.str("root") {
			t.Fatalf("ingest: %s", res.Body)
		}
		s := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
		if s.JSON["results"].([]any)[0].(map[string]any)["status"] != "clear" {
			t.Fatalf("delisted address still sanctioned: %s", s.Body)
		}
	})
}

func TestIngestFlags(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.Sources = stringList{"list:ETH=testdata/sanctioned_addresses_ETH.txt"}
	cfg.IngestSchedule = "every so often"
	m := NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(t.Context()); err == nil || !strings.Contains(err.Error(), "--ingest-schedule") {
		t.Fatalf("bad schedule accepted: %v", err)
	}
	_ = m.Close()
	cfg.IngestSchedule = "@every 6h"
	cfg.Sources = stringList{"bogus=/x"}
	m = NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(t.Context()); err == nil {
		t.Fatal("bad source accepted")
	}
	_ = m.Close()
	var l stringList
	_ = l.Set("list:ETH=a.txt; gov_sdn=b.xml")
	if len(l) != 2 || l[1] != "gov_sdn=b.xml" {
		t.Fatalf("env list %v", l)
	}
}

func TestE2EMerkleProofBatch(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register("")
	batch := []map[string]any{
		{"address": tornado, "chain": "ethereum"},
		{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "ethereum"},
		{"address": "bogus", "chain": "bitcoin"},
		{"address": strings.ToLower(tornado), "chain": "base"}, // the same leaf again
	}
	r := ts.do("POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": batch, "multiproof": true}).must(t, 200)
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
	ts.do("POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []any{}}).problem(t, 400, cairn.EINVALID)
	ts.do("POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}).problem(t, 400, cairn.EINVALID)
}

func TestE2EVerifyProofCommand(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register("")
	dir := t.TempDir()
	check := func(name string, body []byte) (int, string) {
		path := filepath.Join(dir, name)
		os.WriteFile(path, body, 0o600)
		var out, errOut strings.Builder
		code := Run(t.Context(), []string{"verify-proof", path}, &out, &errOut, func(string) string { return "" })
		return code, out.String() + errOut.String()
	}
	mp := ts.do("GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+tornado, a.Key, nil).must(t, 200)
	if code, out := check("proof.json", mp.Body); code != 0 || !strings.Contains(out, "OK: (evm, ") {
		t.Fatalf("valid proof: %d %s", code, out)
	}
	tampered := strings.Replace(string(mp.Body), strings.ToLower(tornado[2:]), "0000000000000000000000000000000000000001", 1)
	if code, out := check("tampered.json", []byte(tampered)); code != 1 || !strings.Contains(out, "FAIL") {
		t.Fatalf("tampered proof accepted: %d %s", code, out)
	}
	s := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	doc := ts.do("GET", "/v1/compliance/proofs/"+s.JSON["proof"].(map[string]any)["screeningId"].(string), a.Key, nil).must(t, 200)
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
}
