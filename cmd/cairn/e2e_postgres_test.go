package main

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestE2EPostgresStore runs the service with --store postgres://... and
// checks registration, charges, refunds and a restart against it. The free
// screening window stays in the embedded store and survives the restart too.
func TestE2EPostgresStore(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	cfg := testConfig(t, t.TempDir())
	cfg.Store, cfg.PostgresSchema = url, schema
	cfg.Sources = stringList{"list:ETH=testdata/sanctioned_addresses_ETH.txt"}
	ts := startServer(t, cfg)
	if ts.m.pg == nil || ts.m.core != ts.m.pg {
		t.Fatal("the service did not open the Postgres store")
	}
	a := ts.register("pg")
	ts.do("POST", "/v1/agents", a.Key, nil).must(t, 201)
	ts.do("POST", "/v1/agents", a.Key, map[string]any{"name": "bad\x01name"}).must(t, 400)
	if bal := ts.balance(a.Key); bal != 90 {
		t.Fatalf("balance %d, want 90", bal)
	}
	ts.do("GET", "/readyz", "", nil).must(t, 200)
	r := ts.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(10)}).must(t, 200)
	reset := r.Header.Get("X-RateLimit-Free-Reset")
	if r.Header.Get("X-RateLimit-Free-Remaining") != "0" || r.Header.Get("X-RateLimit-Billable") != "0" {
		t.Fatalf("ten free addresses: %v", r.Header)
	}
	ts.stop()

	ts2 := startServer(t, cfg)
	if bal := ts2.balance(a.Key); bal != 90 {
		t.Fatalf("balance %d after restart, want 90", bal)
	}
	r = ts2.do("GET", "/v1/billing/transactions", a.Key, nil).must(t, 200)
	if n := len(r.JSON["transactions"].([]any)); n != 4 { // grant, charge, charge, refund
		t.Fatalf("%d ledger entries, want 4: %s", n, r.Body)
	}
	r = ts2.do("POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(1)}).must(t, 200)
	if r.Header.Get("X-RateLimit-Billable") != "1" || r.Header.Get("X-RateLimit-Free-Reset") != reset {
		t.Fatalf("after the restart: %v, want 1 billable and reset %s", r.Header, reset)
	}
	if bal := ts2.balance(a.Key); bal != 89 {
		t.Fatalf("balance %d after a billed screening, want 89", bal)
	}
}

func TestStoreFlagRejectsUnknown(t *testing.T) {
	cfg := testConfig(t, t.TempDir())
	cfg.Store = "mysql://x"
	m := NewMain(cfg, nil, &syncBuffer{})
	if err := m.Open(context.Background()); err == nil {
		t.Fatal("unknown --store accepted")
	}
	_ = m.Close()
}
