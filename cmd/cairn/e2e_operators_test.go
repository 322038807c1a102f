package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
)

// metricLine fails the test unless the admin-token /metrics holds the
// line (a metric with its labels and value).
func metricLine(t *testing.T, ts *testServer, line string) {
	t.Helper()
	body := string(ts.do(t, "GET", "/metrics", admin, nil).must(t, 200).Body)
	for _, l := range strings.Split(body, "\n") {
		if l == line {
			return
		}
	}
	t.Fatalf("/metrics lacks %q:\n%s", line, grepLines(body, "cairn_list", "cairn_anchor", "cairn_oracle", "cairn_ingest", "cairn_leader"))
}

func grepLines(body string, prefixes ...string) string {
	var out []string
	for _, l := range strings.Split(body, "\n") {
		for _, p := range prefixes {
			if strings.HasPrefix(l, p) {
				out = append(out, l)
			}
		}
	}
	return strings.Join(out, "\n")
}

// TestE2EOperatorsWatchTheChain: an operator with the admin token reads
// the roots and their anchoring, and /metrics shows the served and the
// anchored list version, the anchoring and oracle states, each source's
// ingestion and the leadership; when the chain goes away the instance
// stays ready (screening goes on) and the failure shows there instead.
func TestE2EOperatorsWatchTheChain(t *testing.T) {
	base, list := complianceConfig(t)
	base.EVMOracle = false
	c := newSimChain(t)
	ts := startOnChain(t, c, base)
	a := ts.register(t, "")
	waitAnchor(t, ts, c, 1, chain.AnchorSynced, true)

	root := ts.do(t, "GET", "/v1/compliance/merkle-root", admin, nil).must(t, 200)
	anchor, _ := root.JSON["anchor"].(map[string]any)
	if anchor["status"] != chain.AnchorSynced || root.num("listVersion") != 1 {
		t.Fatalf("merkle-root with the admin token: %s", root.Body)
	}
	ts.do(t, "GET", "/v1/compliance/merkle-root", "not-the-admin-token-0123456789abcdef", nil).problem(t, 401, cairn.EUNAUTHORIZED)
	for _, l := range []string{`cairn_list_version 1`, `cairn_list_anchored_version 1`, `cairn_anchor_list_version 1`,
		`cairn_anchor_status{status="synced"} 1`, `cairn_anchor_status{status="failed"} 0`, `cairn_oracle_status{status="disabled"} 1`,
		`cairn_leader 1`, `cairn_ingest_source_failing{source="list:ETH"} 0`, `cairn_chain_state_read_errors 0`} {
		metricLine(t, ts, l)
	}

	// The chain goes away; version 2 cannot be anchored.
	c.sim.Close()
	eth, err := os.ReadFile(list)
	if err != nil {
		t.Fatal(err)
	}
	delist(t, list, eth, tornado)
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	waitAnchor(t, ts, c, 2, chain.AnchorFailed, false)
	ts.do(t, "GET", "/readyz", "", nil).must(t, 200)
	ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": tornado, "chain": "ethereum"}}}).must(t, 200)
	for _, l := range []string{`cairn_list_version 2`, `cairn_list_anchored_version 1`, `cairn_anchor_list_version 2`,
		`cairn_anchor_status{status="failed"} 1`, `cairn_anchor_status{status="synced"} 0`} {
		metricLine(t, ts, l)
	}
}

// startOnChain starts a server with cfg pointed at the in-process chain c.
func startOnChain(t *testing.T, c *simChain, cfg Config) *testServer {
	t.Helper()
	cfg, setup := c.config(cfg)
	return startServer(t, cfg, setup)
}

// TestE2EReadyzNeedsAList: while no sanctions list is loaded (its only
// source fails and none was stored), the instance is not ready, since
// every screening would be refused; once the source is ingested it is,
// and /metrics shows the source's failure meanwhile.
func TestE2EReadyzNeedsAList(t *testing.T) {
	dir := t.TempDir()
	list := filepath.Join(dir, "eth.txt")
	cfg := testConfig(t, filepath.Join(dir, "data"))
	cfg.Sources = stringList{"list:ETH=" + list}
	ts := startServer(t, cfg)
	ts.do(t, "GET", "/readyz", "", nil).problem(t, 503, cairn.EUNAVAILABLE)
	metricLine(t, ts, `cairn_ingest_source_failing{source="list:ETH"} 1`)
	eth, err := os.ReadFile("testdata/sanctioned_addresses_ETH.txt")
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(list, eth, 0o600); err != nil {
		t.Fatal(err)
	}
	ts.do(t, "POST", "/v1/admin/ingest", admin, nil).must(t, 200)
	ts.do(t, "GET", "/readyz", "", nil).must(t, 200)
	metricLine(t, ts, `cairn_ingest_source_failing{source="list:ETH"} 0`)
}

// TestE2EStoreSyncWaitsInMetrics: on the embedded store, /metrics shows
// the synced commits' waits as a histogram (every registration is one)
// and the write stalls.
func TestE2EStoreSyncWaitsInMetrics(t *testing.T) {
	ts := startServer(t, testConfig(t, t.TempDir()))
	ts.register(t, "a")
	body := string(ts.do(t, "GET", "/metrics", admin, nil).must(t, 200).Body)
	value := func(name string) string {
		for _, l := range strings.Split(body, "\n") {
			if v, ok := strings.CutPrefix(l, name+" "); ok {
				return v
			}
		}
		t.Fatalf("/metrics lacks %s:\n%s", name, grepLines(body, "cairn_store"))
		return ""
	}
	count := value("cairn_store_sync_wait_seconds_count")
	if count == "0" || value(`cairn_store_sync_wait_seconds_bucket{le="+Inf"}`) != count {
		t.Fatalf("synced commits' waits:\n%s", grepLines(body, "cairn_store"))
	}
	value("cairn_store_sync_wait_seconds_sum")
	value("cairn_store_write_stalls_total")
	value("cairn_store_write_stall_seconds_total")
}
