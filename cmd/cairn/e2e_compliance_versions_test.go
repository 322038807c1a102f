package main

import (
	"net/url"
	"os"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EListVersionsHistoryAndRestart delists an address, reads its
// history and the list versions, then restarts the service with the source
// gone: the stored list comes back without any fetch, and the failing
// source keeps its entries, visibly in the stats.
func TestE2EListVersionsHistoryAndRestart(t *testing.T) {
	ts, list := complianceServer(t)
	a := ts.register(t, "")
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	lines := strings.Split(strings.TrimSpace(string(eth)), "\n")
	var kept []string
	for _, l := range lines {
		if !strings.EqualFold(strings.TrimSpace(l), tornado) {
			kept = append(kept, l)
		}
	}
	stillListed := strings.TrimSpace(kept[0])
	if err := os.WriteFile(list, []byte(strings.Join(kept, "\n")+"\n"), 0o600); err != nil {
		t.Fatal(err)
	}
	ing := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	if ing.num("listVersion") != 2 || ing.num("removed") != 1 || ing.num("added") != 0 {
		t.Fatalf("ingest: %s", ing.Body)
	}
	screen := func(t *testing.T, ts *testServer, addr string) string {
		t.Helper()
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": addr, "chain": "ethereum"}}}).must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)["status"].(string)
	}

	t.Run("History", func(t *testing.T) {
		h := ts.do(t, "GET", "/v1/compliance/history?chain=polygon&address="+tornado, a.Key, nil).must(t, 200)
		ev := h.JSON["events"].([]any)
		if h.JSON["listed"] != false || h.str("canonicalAddress") != strings.ToLower(tornado) || len(ev) != 2 {
			t.Fatalf("history: %s", h.Body)
		}
		first, second := ev[0].(map[string]any), ev[1].(map[string]any)
		if first["event"] != "listed" || first["listVersion"] != float64(1) || first["source"] != "list:ETH" ||
			second["event"] != "delisted" || second["listVersion"] != float64(2) {
			t.Fatalf("events: %v", ev)
		}
		h = ts.do(t, "GET", "/v1/compliance/history?chain=ethereum&address="+stillListed, a.Key, nil).must(t, 200)
		if h.JSON["listed"] != true || len(h.JSON["events"].([]any)) != 1 {
			t.Fatalf("history of a listed address: %s", h.Body)
		}
		ts.do(t, "GET", "/v1/compliance/history?chain=narnia&address="+tornado, a.Key, nil).problem(t, 400, cairn.EINVALID)
		ts.do(t, "GET", "/v1/compliance/history?chain=ethereum&address=0x12", a.Key, nil).problem(t, 400, cairn.EINVALID)
		ts.do(t, "GET", "/v1/compliance/history?chain=ethereum&address="+tornado, "", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	})
	t.Run("Versions", func(t *testing.T) {
		v := ts.do(t, "GET", "/v1/compliance/versions?limit=1", a.Key, nil).must(t, 200)
		vs := v.JSON["versions"].([]any)
		if len(vs) != 1 || v.num("nextBefore") != 2 {
			t.Fatalf("versions: %s", v.Body)
		}
		v2 := vs[0].(map[string]any)
		if v2["listVersion"] != float64(2) || v2["removed"] != float64(1) || v2["root"] != ing.str("root") {
			t.Fatalf("version 2: %v", v2)
		}
		older := ts.do(t, "GET", "/v1/compliance/versions?before=2", a.Key, nil).must(t, 200)
		v1 := older.JSON["versions"].([]any)[0].(map[string]any)
		s1 := v1["sources"].(map[string]any)["list:ETH"].(map[string]any)
		s2 := v2["sources"].(map[string]any)["list:ETH"].(map[string]any)
		if v1["listVersion"] != float64(1) || older.JSON["nextBefore"] != nil || s1["sha256"] == s2["sha256"] ||
			s1["entries"].(float64) != s2["entries"].(float64)+1 {
			t.Fatalf("version 1: %v", v1)
		}
		ts.do(t, "GET", "/v1/compliance/versions?limit=0", a.Key, nil).problem(t, 400, cairn.EINVALID)
		// The cursor pages the same versions, bound to the caller.
		cur := url.QueryEscape(v.str("nextCursor"))
		if v.JSON["hasMore"] != true || v.num("limit") != 1 || cur == "" {
			t.Fatalf("first page: %s", v.Body)
		}
		next := ts.do(t, "GET", "/v1/compliance/versions?limit=1&cursor="+cur, a.Key, nil).must(t, 200)
		if vs := next.JSON["versions"].([]any); len(vs) != 1 || vs[0].(map[string]any)["listVersion"] != float64(1) ||
			next.JSON["hasMore"] != false || next.JSON["nextCursor"] != nil {
			t.Fatalf("page after the cursor: %s", next.Body)
		}
		other := ts.register(t, "")
		for _, r := range []*response{
			ts.do(t, "GET", "/v1/compliance/versions?cursor="+cur, other.Key, nil),
			ts.do(t, "GET", "/v1/compliance/versions?before=2&cursor="+cur, a.Key, nil),
		} {
			if r.problem(t, 400, cairn.EINVALID); r.str("field") != "cursor" {
				t.Fatalf("field %q: %s", r.str("field"), r.Body)
			}
		}
	})

	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200).str("root")
	ts.stop()
	if err := os.Remove(list); err != nil {
		t.Fatal(err)
	}
	ts2 := startServer(t, ts.m.Config)

	t.Run("RestoredWithoutSource", func(t *testing.T) {
		r := ts2.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
		if r.str("root") != root || r.num("listVersion") < 2 {
			t.Fatalf("root after restart: %s, want %s", r.Body, root)
		}
		if screen(t, ts2, stillListed) != "sanctioned" || screen(t, ts2, tornado) != "clear" {
			t.Fatal("the restored list differs")
		}
	})
	t.Run("FailingSourceKeepsEntries", func(t *testing.T) {
		ing := ts2.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
		if ing.JSON["failures"].(map[string]any)["list:ETH"] == nil || ing.str("root") != root {
			t.Fatalf("ingest with the source gone: %s", ing.Body)
		}
		if screen(t, ts2, stillListed) != "sanctioned" {
			t.Fatal("a failing source dropped its entries")
		}
		st := ts2.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		s := st.JSON["compliance"].(map[string]any)["sources"].(map[string]any)["list:ETH"].(map[string]any)
		if s["lastError"] == nil || s["failedAt"] == nil || s["entries"].(float64) != float64(len(kept)) {
			t.Fatalf("stats of the failing source: %v", s)
		}
	})
}

// TestE2EScreenRefusedWithoutList starts with a source that cannot be
// read: screening is refused (503, refunded) instead of answering clear.
// (With no source at all the bundled snapshot serves: TestE2EBundledSnapshot.)
func TestE2EScreenRefusedWithoutList(t *testing.T) {
	for _, tc := range []struct {
		name    string
		sources stringList
	}{
		{"SourceFails", stringList{"list:ETH=testdata/missing.txt"}},
	} {
		t.Run(tc.name, func(t *testing.T) { testScreenRefusedWithoutList(t, tc.sources) })
	}
}

func testScreenRefusedWithoutList(t *testing.T, sources stringList) {
	cfg := testConfig(t, t.TempDir())
	cfg.Sources = sources
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	ts.do(t, "POST", "/v1/admin/credits", admin, map[string]any{"developerId": a.DeveloperID, "amount": 50, "reason": "test"}).must(t, 200)
	var batch []map[string]any
	for range 20 {
		batch = append(batch, map[string]any{"address": tornado, "chain": "ethereum"})
	}
	ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": batch}).problem(t, 503, cairn.EUNAVAILABLE)
	if b := ts.balance(t, a.Key); b != 150 {
		t.Fatalf("balance %d after a refused screening, want 150", b)
	}
	if len(sources) > 0 {
		st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		if s := st.JSON["compliance"].(map[string]any)["sources"].(map[string]any)["list:ETH"].(map[string]any); s["lastError"] == nil {
			t.Fatalf("stats: %s", st.Body)
		}
	}
	// The Merkle proofs and the listing history say no more than the
	// screening: no list, no "unlisted" answer. Client mistakes stay 400s.
	for _, tc := range []struct {
		name, method, path string
		body               any
		status             int
		code               string
	}{
		{"MerkleProof", "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=" + tornado, nil, 503, cairn.EUNAVAILABLE},
		{"Batch", "POST", "/v1/compliance/merkle-proof/batch", map[string]any{"addresses": batch, "multiproof": true}, 503, cairn.EUNAVAILABLE},
		{"History", "GET", "/v1/compliance/history?chain=ethereum&address=" + tornado, nil, 503, cairn.EUNAVAILABLE},
		{"MerkleProofUnknownChain", "GET", "/v1/compliance/merkle-proof?chain=narnia&address=" + tornado, nil, 400, cairn.EINVALID},
		{"BatchUnknownChain", "POST", "/v1/compliance/merkle-proof/batch", map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}, 400, cairn.EINVALID},
		{"HistoryBadAddress", "GET", "/v1/compliance/history?chain=ethereum&address=0x12", nil, 400, cairn.EINVALID},
		{"ScreenUnknownChain", "POST", "/v1/compliance/screen", map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "narnia"}}}, 400, cairn.EINVALID},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.do(t, tc.method, tc.path, a.Key, tc.body).problem(t, tc.status, tc.code)
		})
	}
	if b := ts.balance(t, a.Key); b != 150 {
		t.Fatalf("balance %d, want 150", b)
	}
}
