package main

import (
	"crypto/sha256"
	"encoding/hex"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync/atomic"
	"testing"

	"github.com/cairn-dev/cairn/ingest"
)

// lazarusETH is an ETH address of the Lazarus Group (OFAC 27307) in the
// SDN list of 2025-11-19, the date of the bundled snapshot.
const lazarusETH = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96"

// TestE2EBundledSnapshot starts on a fresh data dir with no source (and
// the default sources off, as in every test): the bundled snapshot is list
// version 1, a real listed address screens sanctioned with a proof that
// leads to the root, and the stats and the screening proof say it is the
// bundled snapshot of 2025-11-19. A restart keeps version 1 without
// installing it again; a --source replaces it altogether.
func TestE2EBundledSnapshot(t *testing.T) {
	b, err := ingest.BundledSnapshot()
	if err != nil {
		t.Fatal(err)
	}
	cfg := testConfig(t, t.TempDir())
	ts := startServer(t, cfg)
	if logs := ts.logs.String(); !strings.Contains(logs, `"level":"WARN","msg":"serving the BUNDLED OFAC SDN snapshot`) ||
		!strings.Contains(logs, `"snapshot_date":"2025-11-19"`) {
		t.Fatalf("no loud warning about the bundled snapshot:\n%s", logs)
	}
	a := ts.register(t, "")
	root := ts.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
	if root.num("listVersion") != 1 {
		t.Fatalf("merkle root: %s", root.Body)
	}

	r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": lazarusETH, "chain": "ethereum"}}}).must(t, 200)
	res := r.JSON["results"].([]any)[0].(map[string]any)
	m := res["matches"].([]any)[0].(map[string]any)
	if res["status"] != "sanctioned" || m["entityId"] != "27307" || m["entityName"] != "Lazarus Group" || m["source"] != "gov_sdn" {
		t.Fatalf("screen: %s", r.Body)
	}
	proof := r.JSON["proof"].(map[string]any)
	checkBundledSnapshot := func(doc map[string]any) {
		t.Helper()
		s, _ := doc["dataSnapshots"].(map[string]any)["gov_sdn"].(map[string]any)
		if s == nil || s["bundled"] != true || s["sourceSha256"] != b.Header.SHA256 || s["snapshotDate"] != "2025-11-19" ||
			s["sha256"] != b.SHA256() || doc["listVersion"] != float64(1) || doc["merkleRoot"] != root.str("root") {
			t.Fatalf("proof without the bundled snapshot: %v", doc)
		}
	}
	checkBundledSnapshot(proof)
	stored := ts.do(t, "GET", "/v1/compliance/proofs/"+proof["screeningId"].(string), a.Key, nil).must(t, 200)
	checkBundledSnapshot(stored.JSON)

	mp := ts.do(t, "GET", "/v1/compliance/merkle-proof?chain=ethereum&address="+lazarusETH, a.Key, nil).must(t, 200)
	if mp.str("root") != root.str("root") {
		t.Fatalf("merkle proof root %s, current %s", mp.str("root"), root.str("root"))
	}
	dir := t.TempDir()
	if err := os.WriteFile(dir+"/proof.json", mp.Body, 0o600); err != nil {
		t.Fatal(err)
	}
	var out, errOut strings.Builder
	if code := Run(t.Context(), []string{"verify-proof", dir + "/proof.json"}, &out, &errOut, func(string) string { return "" }); code != 0 ||
		!strings.HasPrefix(out.String(), "OK: ") {
		t.Fatalf("verify-proof: %d %s %s", code, out.String(), errOut.String())
	}

	st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
	comp := st.JSON["compliance"].(map[string]any)
	last := comp["lastIngestion"].(map[string]any)
	src := comp["sources"].(map[string]any)["gov_sdn"].(map[string]any)
	if last["source"] != "gov_sdn" || last["bundled"] != true || last["snapshotDate"] != "2025-11-19" ||
		src["bundled"] != true || src["snapshotDate"] != "2025-11-19" || src["sourceSha256"] != b.Header.SHA256 ||
		comp["bySource"].(map[string]any)["gov_sdn"].(float64) < 700 {
		t.Fatalf("stats: %s", st.Body)
	}

	t.Run("RestartKeepsVersion1", func(t *testing.T) {
		ts.stop()
		ts2 := startServer(t, cfg)
		if strings.Contains(ts2.logs.String(), "BUNDLED") {
			t.Fatalf("the snapshot was installed again:\n%s", ts2.logs.String())
		}
		r := ts2.do(t, "GET", "/v1/compliance/merkle-root", a.Key, nil).must(t, 200)
		if r.num("listVersion") != 1 || r.str("root") != root.str("root") {
			t.Fatalf("after restart: %s, want version 1 root %s", r.Body, root.str("root"))
		}
		st := ts2.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		if last := st.JSON["compliance"].(map[string]any)["lastIngestion"].(map[string]any); last["snapshotDate"] != "2025-11-19" {
			t.Fatalf("stats after restart: %s", st.Body)
		}
	})
	t.Run("SourceGivenNoSnapshot", func(t *testing.T) {
		cfg := testConfig(t, t.TempDir())
		cfg.Sources = stringList{"list:ETH=testdata/sanctioned_addresses_ETH.txt"}
		ts := startServer(t, cfg)
		if strings.Contains(ts.logs.String(), "BUNDLED") {
			t.Fatal("the snapshot was installed with a --source")
		}
		st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		comp := st.JSON["compliance"].(map[string]any)
		if _, ok := comp["sources"].(map[string]any)["gov_sdn"]; ok || comp["lastIngestion"].(map[string]any)["source"] != "list:ETH" {
			t.Fatalf("stats with a --source: %s", st.Body)
		}
	})
}

// TestE2EDefaultSources runs --default-sources against a local server in
// place of OFAC's: while it fails, the bundled snapshot stays in use with
// the failure in the stats and the log; once it serves, its file replaces
// the snapshot.
func TestE2EDefaultSources(t *testing.T) {
	xml, err := os.ReadFile("testdata/ofac_xml/sdn_advanced_excerpt.xml")
	if err != nil {
		t.Fatal(err)
	}
	var up atomic.Bool
	var hits atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		hits.Add(1)
		if !up.Load() {
			http.Error(w, "unavailable", http.StatusServiceUnavailable)
			return
		}
		w.Write(xml)
	}))
	defer srv.Close()
	cfg := testConfig(t, t.TempDir())
	cfg.DefaultSources = true
	cfg.IngestMaxDrop = 0.9 // the excerpt has 42 of the 79 listed parties
	ts := startServer(t, cfg, func(m *Main) {
		m.DefaultSources = []ingest.Source{{Name: ingest.SourceGovSDN, Location: srv.URL + "/SDN_ADVANCED.XML"}}
	})
	a := ts.register(t, "")
	gov := func() map[string]any {
		st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200)
		return st.JSON["compliance"].(map[string]any)["sources"].(map[string]any)["gov_sdn"].(map[string]any)
	}
	screen := func() map[string]any {
		r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": lazarusETH, "chain": "ethereum"}}}).must(t, 200)
		if r.JSON["results"].([]any)[0].(map[string]any)["status"] != "sanctioned" {
			t.Fatalf("screen: %s", r.Body)
		}
		return r.JSON["proof"].(map[string]any)["dataSnapshots"].(map[string]any)["gov_sdn"].(map[string]any)
	}

	ing := ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	if ing.JSON["failures"].(map[string]any)["gov_sdn"] == nil || hits.Load() == 0 {
		t.Fatalf("ingest with the default source down: %s (%d requests)", ing.Body, hits.Load())
	}
	if s := gov(); s["bundled"] != true || s["lastError"] == nil || s["failedAt"] == nil {
		t.Fatalf("stats with the default source down: %v", s)
	}
	if !strings.Contains(ts.logs.String(), `"msg":"ingestion kept the previous version","source":"gov_sdn"`) {
		t.Fatalf("the failure is not logged:\n%s", ts.logs.String())
	}
	if s := screen(); s["bundled"] != true {
		t.Fatalf("proof with the default source down: %v", s)
	}

	up.Store(true)
	ing = ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	if len(ing.JSON["failures"].(map[string]any)) != 0 {
		t.Fatalf("ingest with the default source up: %s", ing.Body)
	}
	sum := sha256.Sum256(xml)
	if s := gov(); s["bundled"] != nil || s["lastError"] != nil || s["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("stats with the default source up: %v", s)
	}
	if s := screen(); s["bundled"] != nil || s["snapshotDate"] != nil || s["sha256"] != hex.EncodeToString(sum[:]) {
		t.Fatalf("proof with the default source up: %v", s)
	}
}
