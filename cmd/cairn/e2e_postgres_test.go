package main

import (
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestE2EPostgresStore runs the service with --store postgres://... and
// checks registration, charges, refunds and a restart against it (with
// --store postgres --postgres-url). The free
// screening window, in Postgres too, survives the restart.
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
	a := ts.register(t, "pg")
	ts.do(t, "POST", "/v1/agents", a.Key, nil).must(t, 201)
	ts.do(t, "POST", "/v1/agents", a.Key, map[string]any{"name": "bad\x01name"}).must(t, 400)
	if bal := ts.balance(t, a.Key); bal != 90 {
		t.Fatalf("balance %d, want 90", bal)
	}
	ts.do(t, "GET", "/readyz", "", nil).must(t, 200)
	r := ts.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(10)}).must(t, 200)
	reset := r.Header.Get("X-RateLimit-Free-Reset")
	if r.Header.Get("X-RateLimit-Free-Remaining") != "0" || r.Header.Get("X-RateLimit-Billable") != "0" {
		t.Fatalf("ten free addresses: %v", r.Header)
	}
	ts.stop()

	// The restart names the database the other way: --store postgres
	// --postgres-url URL.
	cfg.Store, cfg.PostgresURL = "postgres", url
	ts2 := startServer(t, cfg)
	if ts2.m.pg == nil {
		t.Fatal("--store postgres --postgres-url did not open the Postgres store")
	}
	if bal := ts2.balance(t, a.Key); bal != 90 {
		t.Fatalf("balance %d after restart, want 90", bal)
	}
	r = ts2.do(t, "GET", "/v1/billing/transactions", a.Key, nil).must(t, 200)
	if n := len(r.JSON["transactions"].([]any)); n != 4 { // grant, charge, charge, refund
		t.Fatalf("%d ledger entries, want 4: %s", n, r.Body)
	}
	r = ts2.do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addresses(1)}).must(t, 200)
	if r.Header.Get("X-RateLimit-Billable") != "1" || r.Header.Get("X-RateLimit-Free-Reset") != reset {
		t.Fatalf("after the restart: %v, want 1 billable and reset %s", r.Header, reset)
	}
	if bal := ts2.balance(t, a.Key); bal != 89 {
		t.Fatalf("balance %d after a billed screening, want 89", bal)
	}
	// The deferred charges PostgreSQL refused as unpaid are counted in
	// /metrics (none here: one instance never overspends its own view).
	metrics := string(ts2.do(t, "GET", "/metrics", admin, nil).must(t, 200).Body)
	for _, want := range []string{"cairn_charges_unpaid_total 0\n", "cairn_charges_unpaid_credits_total 0\n"} {
		if !strings.Contains(metrics, want) {
			t.Fatalf("/metrics lacks %q:\n%s", want, grepLines(metrics, "cairn_charges"))
		}
	}
}

// TestE2EPostgresMemory runs the memory API against --store postgres:// and
// then restarts the service without its embedded store and search index:
// memories, versions, idempotency records and the audit log are read back
// from Postgres, and search, answered by Postgres, finds memories stored
// before it indexed their text once the start has given it their texts.
func TestE2EPostgresMemory(t *testing.T) {
	url := pgtest.URL(t)
	cfg := testConfig(t, t.TempDir())
	cfg.Store, cfg.PostgresSchema = url, pgtest.Schema(t, url)
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 100000, 100000
	ts := startServer(t, cfg)
	if ts.m.pg == nil || ts.m.core != store.Store(ts.m.pg) {
		t.Fatal("memories are not in the Postgres store")
	}
	a := ts.register(t, "pg-mem")
	ts.topUp(t, a, 1000)
	create := map[string]any{"key": "notes/fox", "content": "the quick brown fox", "importance": 0.9}
	id := ts.do(t, "POST", "/v1/memory", a.Key, create, "Idempotency-Key", "idem-1").must(t, 201).str("id")
	if again := ts.do(t, "POST", "/v1/memory", a.Key, create, "Idempotency-Key", "idem-1").must(t, 201).str("id"); again != id {
		t.Fatalf("idempotent retry answered %s, want %s", again, id)
	}
	ts.wantBalance(t, a, 995) // the retry is not charged again
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "notes/fox", "content": "again"}).problem(t, 409, cairn.ECONFLICT)
	v2 := ts.do(t, "PUT", "/v1/memory/"+id, a.Key, map[string]any{"content": "the lazy dog sleeps"}).must(t, 200).str("id")
	other := ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "notes/cat", "content": "a cat naps", "importance": 0.1}).must(t, 201).str("id")
	b := ts.register(t, "pg-mem-other")
	ts.do(t, "GET", "/v1/memory/"+id, b.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "DELETE", "/v1/memory/"+other, a.Key, nil).must(t, 200)
	ts.do(t, "GET", "/v1/memory/"+other, a.Key, nil).problem(t, 404, cairn.ENOTFOUND)
	ts.do(t, "POST", "/v1/memory", b.Key, map[string]any{"key": "Notes/ÉTÉ", "content": "summer plans"}).must(t, 201)
	// Memories as a release before 0009_memory_search left them: no text
	// searched, keys lower-cased by SQL's lower() (ASCII only); the start
	// gives the store their texts and keys from the blobs.
	if _, err := ts.m.pg.Pool().Exec(context.Background(),
		"UPDATE memory_versions SET fts = NULL; UPDATE memories SET fts = NULL, key_lower = lower(key)"); err != nil {
		t.Fatal(err)
	}
	if keys, _, _ := searchKeys(t, ts, b.Key, "/v1/memory/search", map[string]any{"query": "été"}); len(keys) != 0 {
		t.Fatalf("key search before the fill: %v", keys)
	}
	ts.stop()

	// The embedded store and the search index are gone: only the blobs and
	// the service key stay in the data dir.
	for _, dir := range []string{"store", "memory-index"} {
		if err := os.RemoveAll(filepath.Join(cfg.DataDir, dir)); err != nil {
			t.Fatal(err)
		}
	}
	ts = startServer(t, cfg)
	if r := ts.do(t, "GET", "/v1/memory/"+v2, a.Key, nil).must(t, 200); r.str("content") != "the lazy dog sleeps" || r.num("version") != 2 {
		t.Fatalf("latest version after the restart: %s", r.Body)
	}
	if r := ts.do(t, "GET", "/v1/memory/"+id+"/history", a.Key, nil).must(t, 200); len(r.JSON["versions"].([]any)) != 2 {
		t.Fatalf("history after the restart: %s", r.Body)
	}
	if again := ts.do(t, "POST", "/v1/memory", a.Key, create, "Idempotency-Key", "idem-1").must(t, 201).str("id"); again != id {
		t.Fatalf("idempotent retry after the restart answered %s, want %s", again, id)
	}
	r := ts.do(t, "GET", "/v1/memory?history=true", a.Key, nil).must(t, 200)
	if ms := r.JSON["memories"].([]any); len(ms) != 2 || ms[0].(map[string]any)["version"] != 2.0 {
		t.Fatalf("history listing: %s", r.Body)
	}
	if keys, _, _ := searchKeys(t, ts, a.Key, "/v1/memory/search", map[string]any{"contentQuery": "lazy"}); !slices.Equal(keys, []string{"notes/fox"}) {
		t.Fatalf("search after the index rebuild: %v", keys)
	}
	if keys, _, _ := searchKeys(t, ts, a.Key, "/v1/memory/search", map[string]any{"contentQuery": "cat"}); len(keys) != 0 {
		t.Fatalf("search found a deleted memory: %v", keys)
	}
	if keys, _, _ := searchKeys(t, ts, b.Key, "/v1/memory/search", map[string]any{"contentQuery": "summer", "query": "été"}); !slices.Equal(keys, []string{"Notes/ÉTÉ"}) {
		t.Fatalf("search after the fill: %v", keys)
	}
	var got []string
	for _, e := range ts.do(t, "GET", "/v1/memory/audit?limit=100", a.Key, nil).must(t, 200).JSON["entries"].([]any) {
		got = append(got, e.(map[string]any)["action"].(string))
	}
	if len(got) < 5 || got[len(got)-1] != cairn.AuditRegister || !slices.Contains(got, cairn.AuditDelete) {
		t.Fatalf("audit log after the restart: %v", got)
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

// TestE2EPostgresAuditOneLog checks that GET /v1/memory/audit shows the
// account entries (register, rotate_key) among the memory entries, all in
// Postgres, newest first, page by page.
func TestE2EPostgresAuditOneLog(t *testing.T) {
	url := pgtest.URL(t)
	cfg := testConfig(t, t.TempDir())
	cfg.Store, cfg.PostgresSchema = url, pgtest.Schema(t, url)
	ts := startServer(t, cfg)
	a := ts.register(t, "pg-audit")
	ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k1", "content": "x"}).must(t, 201)
	key := ts.do(t, "POST", "/v1/agents/self/rotate-key", a.Key, map[string]any{"rotationSecret": a.Secret}).must(t, 200).str("apiKey")
	ts.do(t, "POST", "/v1/memory", key, map[string]any{"key": "k2", "content": "y"}).must(t, 201)

	want := []string{cairn.AuditWrite, cairn.AuditRotateKey, cairn.AuditWrite, cairn.AuditRegister}
	var got []string
	path := "/v1/memory/audit?limit=1"
	for range 10 {
		r := ts.do(t, "GET", path, key, nil).must(t, 200)
		for _, e := range r.JSON["entries"].([]any) {
			got = append(got, e.(map[string]any)["action"].(string))
		}
		if r.JSON["hasMore"] != true {
			break
		}
		path = "/v1/memory/audit?limit=1&cursor=" + r.str("nextCursor")
	}
	if !slices.Equal(got, want) {
		t.Fatalf("audit log %v, want %v", got, want)
	}
	r := ts.do(t, "GET", "/v1/memory/audit?action=rotate_key", key, nil).must(t, 200)
	if es := r.JSON["entries"].([]any); len(es) != 1 || es[0].(map[string]any)["action"] != cairn.AuditRotateKey {
		t.Fatalf("filtered audit log: %s", r.Body)
	}
}

// TestResolveStore: --store postgres takes its URL from --postgres-url; a
// --postgres-url that nothing would use is refused rather than ignored.
func TestResolveStore(t *testing.T) {
	const url = "postgres://u@127.0.0.1:5432/db"
	for _, c := range []struct {
		store, pgURL, want string
		ok                 bool
	}{
		{"postgres", url, url, true},
		{url, "", url, true},
		{"pebble", "", "pebble", true},
		{"", "", "", true},
		{"postgres", "", "", false},
		{"postgres", "mysql://x", "", false},
		{"pebble", url, "", false},
		{"postgres://other@h/db", url, "", false},
	} {
		cfg := Config{StoreConfig: StoreConfig{Store: c.store, PostgresURL: c.pgURL}}
		err := resolveStore(&cfg)
		if (err == nil) != c.ok || (c.ok && cfg.Store != c.want) {
			t.Errorf("--store %q --postgres-url %q: store %q, %v", c.store, c.pgURL, cfg.Store, err)
		}
	}
}
