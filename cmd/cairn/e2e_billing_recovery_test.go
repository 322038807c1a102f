package main

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestRecoveryRefundsOnlyInterruptedCharges charges priced writes that
// succeed, fail with a refund (400), fail keeping their charge (404, 409),
// and one whose request never got to write (a charge taken as by a request
// a crash cut short). After a restart that finds no checkpoint (as after a
// crash), only that one is refunded, and a second restart refunds nothing
// more. It runs on the embedded store and, when configured, on Postgres.
func TestRecoveryRefundsOnlyInterruptedCharges(t *testing.T) {
	t.Run("Pebble", func(t *testing.T) { testRecovery(t, testConfig(t, t.TempDir())) })
	t.Run("Postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		cfg := testConfig(t, t.TempDir())
		cfg.Store, cfg.PostgresSchema = url, pgtest.Schema(t, url)
		testRecovery(t, cfg)
	})
}

func testRecovery(t *testing.T, cfg Config) {
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 100000, 100000
	ts := startServer(t, cfg)
	a := ts.register(t, "recovery")
	id := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).must(t, 201).str("id")
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "y"}).must(t, 409)
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k2", "content": "y", "importance": 7}).must(t, 400)
	ts.do(t, "PUT", "/v1/memory/"+cairn.NewID(), a.Key, map[string]any{"content": "z"}).must(t, 404)
	ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "v2"}).must(t, 200)
	ts.do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
		map[string]any{"key": "b1", "content": "one"}, map[string]any{"key": "k", "content": "dup"}}}).must(t, 200)
	ts.do(t, "DELETE", "/v1/memory/"+id, a.Key, nil).must(t, 200)
	want := 100 - 5 - 5 - 5 - 5 - 5 - 5 - 2 // the bulk's 409 item keeps its charge (spec 7)
	ts.wantBalance(t, a, want)
	if _, err := ts.m.server.Ledger.Charge(context.Background(), a.DeveloperID, a.ID, billing.OpMemoryWrite, 5, "cut-short"); err != nil {
		t.Fatal(err)
	}
	ts.wantBalance(t, a, want-5)
	for range 2 {
		ts.stop()
		forgetCheckpoint(t, cfg.DataDir)
		ts = startServer(t, cfg)
		ts.wantBalance(t, a, want)
		if n := strings.Count(ts.logs.String(), "refunded the charge of an interrupted write"); n > 1 {
			t.Fatalf("%d refunds logged, want at most 1:\n%s", n, ts.logs.String())
		}
	}
}

// forgetCheckpoint makes the next start scan the whole lookback window, as
// after a crash long after the last checkpoint.
func forgetCheckpoint(t *testing.T, dataDir string) {
	t.Helper()
	db, err := pebble.Open(filepath.Join(dataDir, "store"), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	if err := db.PutSetting(context.Background(), "billing.checkpoint", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
}
