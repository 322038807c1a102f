package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/merkle"
)

const tornado = apitest.Tornado // listed in sanctioned_addresses_ETH.txt

func complianceServer(t *testing.T) (*testServer, string) {
	t.Helper()
	cfg, list := complianceConfig(t)
	return startServer(t, cfg), list
}

// complianceConfig is the configuration of complianceServer and the path
// of its ETH list, a copy the test may change.
func complianceConfig(t *testing.T) (Config, string) {
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
	return cfg, list
}

// complianceList is complianceConfig with the content of its ETH list.
func complianceList(t *testing.T) (cfg Config, list string, eth []byte) {
	t.Helper()
	cfg, list = complianceConfig(t)
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	return cfg, list, eth
}

func hexBytes32(t *testing.T, s string) merkle.Hash {
	t.Helper()
	return apitest.HexBytes32(t, s)
}

func TestE2EScreen(t *testing.T) {
	ts, _ := complianceServer(t)
	a := ts.register(t, "")
	batch := []map[string]any{
		{"address": tornado, "chain": "ethereum"},
		{"address": strings.ToLower(tornado), "chain": "polygon"},
		{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h", "chain": "bitcoin"},
		{"address": "0x0000000000000000000000000000000000000001", "chain": "base"},
		{"address": "definitely-not-an-address", "chain": "bitcoin"},
	}
	r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": batch}).must(t, 200)
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
	if ts.balance(t, a.Key) != 100 {
		t.Fatal("free addresses were charged")
	}
	t.Run("ProofStoredAndHashed", func(t *testing.T) {
		proof := r.JSON["proof"].(map[string]any)
		p := ts.do(t, "GET", "/v1/compliance/proofs/"+proof["screeningId"].(string), a.Key, nil).must(t, 200)
		if p.str("resultsHash") != proof["resultsHash"] || p.str("merkleRoot") != proof["merkleRoot"] {
			t.Fatalf("stored proof differs: %s", p.Body)
		}
		snaps := proof["dataSnapshots"].(map[string]any)
		if s, ok := snaps["list:ETH"].(map[string]any); !ok || len(s["sha256"].(string)) != 64 {
			t.Fatalf("snapshots %v", snaps)
		}
		ts.do(t, "GET", "/v1/compliance/proofs/"+cairn.NewID(), a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	})
	t.Run("FreeTierThenBilling", func(t *testing.T) {
		var eight []map[string]any
		for i := 0; i < 8; i++ {
			eight = append(eight, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": eight}).must(t, 200)
		rl := r.JSON["rateLimit"].(map[string]any)
		if rl["billableAddresses"] != float64(3) || rl["creditCharged"] != float64(3) || rl["freeRemaining"] != float64(0) {
			t.Fatalf("rate limit %v", rl)
		}
		if b := ts.balance(t, a.Key); b != 97 {
			t.Fatalf("balance %d, want 97", b)
		}
	})
	t.Run("Errors", func(t *testing.T) {
		before := ts.balance(t, a.Key)
		var many []map[string]any
		for i := 0; i < 101; i++ {
			many = append(many, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": many}).problem(t, 400, cairn.EINVALID)
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}).
			problem(t, 400, cairn.EINVALID)
		if !strings.Contains(r.str("detail"), "narnia") || r.str("field") != "addresses[0].chain" || !strings.Contains(r.str("detail"), "bitcoin") {
			t.Fatalf("unknown chain not named, or its field or the supported chains not given: %s", r.Body)
		}
		// A missing chain says so (not `unknown chain ""`), on the member
		// that lacks it.
		r = ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{
			{"address": tornado, "chain": "ethereum"}, {"address": tornado}}}).problem(t, 400, cairn.EINVALID)
		if r.str("field") != "addresses[1].chain" || !strings.Contains(r.str("detail"), "missing") || strings.Contains(r.str("detail"), `""`) {
			t.Fatalf("missing chain: %s", r.Body)
		}
		ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []any{}}).problem(t, 400, cairn.EINVALID)
		if b := ts.balance(t, a.Key); b != before {
			t.Fatalf("balance %d after rejected requests, want %d", b, before)
		}
	})
	t.Run("DeveloperJWTAnd402", func(t *testing.T) {
		b := ts.register(t, "")
		var out, errOut strings.Builder
		if code := Run(t.Context(), []string{"token", "--developer-id", b.DeveloperID, "--data-dir", ts.m.Config.DataDir}, &out, &errOut, func(string) string { return "" }); code != 0 {
			t.Fatalf("token: %s", errOut.String())
		}
		tok := strings.TrimSpace(out.String())
		ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": b.DeveloperID, "amount": -95, "reason": "test"}).must(t, 200)
		var fifteen []map[string]any
		for i := 0; i < 15; i++ {
			fifteen = append(fifteen, map[string]any{"address": tornado, "chain": "ethereum"})
		}
		r := ts.do(t, "POST", "/v1/compliance/screen", tok, map[string]any{"addresses": fifteen}).must(t, 200)
		if r.JSON["rateLimit"].(map[string]any)["creditCharged"] != float64(5) || ts.balance(t, b.Key) != 0 {
			t.Fatalf("JWT billing: %s", r.Body)
		}
		ts.do(t, "POST", "/v1/compliance/screen", tok, map[string]any{"addresses": fifteen[:1]}).problem(t, 402, cairn.EPAYMENT)
		tx := ts.do(t, "GET", "/v1/billing/transactions?limit=1", tok, nil).must(t, 200)
		if e := tx.JSON["transactions"].([]any)[0].(map[string]any); e["operation"] != "compliance.screen" || e["amount"] != float64(-5) {
			t.Fatalf("ledger entry of the screening: %v", e)
		}
	})
}

// checkResultsHash checks that resultsHash is the SHA-256 of the results
// as served and as stored with the proof (apitest.Client.CheckResultsHash).
func checkResultsHash(t *testing.T, ts *testServer, key string, r *response) {
	t.Helper()
	ts.client().CheckResultsHash(t, key, (*apitest.Response)(r))
}

// addresses returns n screening items of one listed address.
func addresses(n int) []map[string]any { return apitest.Addresses(n) }

func proofHashes(t *testing.T, v any) []merkle.Hash {
	t.Helper()
	return apitest.ProofHashes(t, v)
}

// verifyBatch checks every proof and the multiproof of a batch answer
// against the published root (apitest.VerifyBatch).
func verifyBatch(t *testing.T, r *response, root merkle.Hash, wantListed int) {
	t.Helper()
	apitest.VerifyBatch(t, (*apitest.Response)(r), root, wantListed)
}

// screenStatus screens one ETH address with community listings
// (apitest.Client.ScreenStatus).
func screenStatus(t *testing.T, ts *testServer, key, addr string) string {
	t.Helper()
	return ts.client().ScreenStatus(t, key, addr)
}

func listVersion(t *testing.T, ts *testServer) float64 {
	t.Helper()
	return ts.client().ListVersion(t)
}

func reportBody(addr string) map[string]any { return apitest.ReportBody(addr) }
