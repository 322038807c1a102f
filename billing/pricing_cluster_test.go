package billing_test

import (
	"context"
	"encoding/json"
	"maps"
	"os"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestPricingConcurrentInstances: two instances change different
// operations at the same moment, many times; every last change of every
// operation is in the stored list, and each instance's Reload installs all
// of them. On PostgreSQL each instance has its own connection pool on one
// schema, as two processes; Pebble has one process, two Pricing values.
func TestPricingConcurrentInstances(t *testing.T) {
	stores := map[string]func(t *testing.T) [2]store.Settings{
		"Pebble": func(t *testing.T) [2]store.Settings {
			db := openDB(t, t.TempDir())
			t.Cleanup(func() { db.Close() })
			return [2]store.Settings{db, db}
		},
	}
	if os.Getenv("CAIRN_TEST_POSTGRES_URL") != "" || os.Getenv("CAIRN_REQUIRE_POSTGRES") == "1" {
		stores["Postgres"] = func(t *testing.T) (dbs [2]store.Settings) {
			url := pgtest.URL(t)
			schema := pgtest.Schema(t, url)
			for i := range dbs {
				db, err := postgres.Open(context.Background(), url, postgres.Options{Schema: schema})
				if err != nil {
					t.Fatal(err)
				}
				t.Cleanup(func() { db.Close() })
				dbs[i] = db
			}
			return dbs
		}
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) { concurrentPricing(t, open(t)) })
	}
}

// concurrentPricing runs the changes of TestPricingConcurrentInstances on
// the two instances' stores.
func concurrentPricing(t *testing.T, dbs [2]store.Settings) {
	ctx := context.Background()
	ops := slices.Sorted(maps.Keys(billing.DefaultCosts()))
	mine := [2][]string{ops[:len(ops)/2], ops[len(ops)/2:]}
	var prices [2]*billing.Pricing
	for i, db := range dbs {
		var err error
		if prices[i], err = billing.NewPricing(ctx, db); err != nil {
			t.Fatal(err)
		}
	}
	const rounds = 40
	want := billing.DefaultCosts()
	errs := make(chan error, 2)
	for i := range 2 {
		for r := range rounds {
			want[mine[i][r%len(mine[i])]] = int64(100*i + r + 1)
		}
		go func() {
			for r := range rounds {
				op, cost := mine[i][r%len(mine[i])], int64(100*i+r+1)
				got, err := prices[i].Set(ctx, map[string]int64{op: cost})
				if err != nil {
					errs <- err
					return
				}
				if got[op] != cost {
					t.Errorf("instance %d: Set returned %s = %d, want %d", i, op, got[op], cost)
				}
			}
			errs <- nil
		}()
	}
	for range 2 {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	b, err := dbs[0].Setting(ctx, "pricing")
	if err != nil {
		t.Fatal(err)
	}
	var stored map[string]int64
	if err := json.Unmarshal(b, &stored); err != nil {
		t.Fatal(err)
	}
	if !maps.Equal(stored, want) {
		t.Fatalf("stored list %v, want %v: a concurrent change was lost", stored, want)
	}
	for i, p := range prices {
		if _, err := p.Reload(ctx); err != nil {
			t.Fatal(err)
		}
		if got := p.Costs(); !maps.Equal(got, want) {
			t.Fatalf("instance %d after Reload: %v, want %v", i, got, want)
		}
	}
}
