package main

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// pgPair starts two instances on one new Postgres schema, each with a data
// dir of its own, without sources.
func pgPair(t *testing.T) (*testServer, *testServer) {
	t.Helper()
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	instance := func() *testServer {
		cfg := testConfig(t, t.TempDir())
		cfg.Store, cfg.PostgresSchema = url, schema
		cfg.LeaderInterval, cfg.ListPollInterval = 100*time.Millisecond, time.Hour
		return startServer(t, cfg)
	}
	return instance(), instance()
}

// TestE2EClusterPricing: two instances on one Postgres schema; a price
// the administrator changes on one applies on the other within seconds
// (what it shows and what it charges), and a change made on the second
// keeps the first's.
func TestE2EClusterPricing(t *testing.T) {
	a, b := pgPair(t)
	cost := func(ts *testServer, op string) float64 {
		costs, _ := ts.do(t, "GET", "/v1/billing/pricing", "", nil).must(t, 200).JSON["operationCosts"].(map[string]any)
		f, _ := costs[op].(float64)
		return f
	}
	if cost(b, "memory.write") != 5 {
		t.Fatal("memory.write does not cost 5 by default")
	}
	a.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]any{"memory.write": 7}}).must(t, 200)
	eventually(t, "the other instance shows the new price", func() bool { return cost(b, "memory.write") == 7 })
	agent := b.register(t, "")
	before := b.balance(t, agent.Key)
	b.do(t, "POST", "/v1/memory", agent.Key, map[string]any{"key": "p/1", "content": "x"}).must(t, 201)
	if got := b.balance(t, agent.Key); got != before-7 {
		t.Fatalf("a write on the other instance cost %d, want the new price 7", before-got)
	}
	b.do(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]any{"memory.read": 2}}).must(t, 200)
	eventually(t, "the first instance shows the second's change", func() bool { return cost(a, "memory.read") == 2 })
	if cost(a, "memory.write") != 7 || cost(b, "memory.write") != 7 {
		t.Fatal("a change of another price dropped the first change")
	}
}
