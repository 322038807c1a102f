package main

import (
	"fmt"
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

// TestE2EClusterPricingConcurrent: administrators change different prices
// on two instances at the same moment, round after round (on each
// instance, one administrator per price); after each round, both
// instances show every change of the round.
func TestE2EClusterPricingConcurrent(t *testing.T) {
	a, b := pgPair(t)
	ops := [2][]string{{"memory.write", "memory.read", "memory.update"}, {"media.upload", "search", "agent.create"}}
	const rounds = 10
	for r := 1; r <= rounds; r++ {
		want := map[string]float64{}
		errs := make(chan error, len(ops[0])+len(ops[1]))
		for i, ts := range []*testServer{a, b} {
			for j, op := range ops[i] {
				cost := 1000*i + 100*j + r
				want[op] = float64(cost)
				go func() {
					res, err := ts.client().Try(t, "PUT", "/v1/admin/pricing", admin, map[string]any{"operationCosts": map[string]any{op: cost}})
					if err == nil && res.Status != 200 {
						err = fmt.Errorf("status %d: %s", res.Status, res.Body)
					}
					if err != nil {
						err = fmt.Errorf("instance %d, setting %s: %w", i, op, err)
					}
					errs <- err
				}()
			}
		}
		for range cap(errs) {
			if err := <-errs; err != nil {
				t.Fatal(err)
			}
		}
		for i, ts := range []*testServer{a, b} {
			eventually(t, fmt.Sprintf("instance %d shows every change of round %d", i, r), func() bool {
				costs, _ := ts.do(t, "GET", "/v1/billing/pricing", "", nil).must(t, 200).JSON["operationCosts"].(map[string]any)
				for op, cost := range want {
					if costs[op] != cost {
						return false
					}
				}
				return true
			})
		}
	}
}
