package main

import (
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestE2EClusterCatchUp: a memory change whose notification never reaches
// an instance is picked up by that instance's periodic catch-up
// (--memory-catch-up-interval), while its listening connection stays up.
// The writer is an instance on the same tables whose schema comes from the
// URL's search_path rather than --postgres-schema: it notifies its changes
// on "cairn_memory", a channel the follower does not listen on, so the
// follower hears none of them.
func TestE2EClusterCatchUp(t *testing.T) {
	url := pgtest.URL(t)
	schema := pgtest.Schema(t, url)
	s3cfg, _ := s3Server(t)
	instance := func(store, schema string, catchUp time.Duration) *testServer {
		cfg := s3cfg
		cfg.DataDir = t.TempDir()
		cfg.Store, cfg.PostgresSchema = store, schema
		cfg.LeaderInterval, cfg.ListPollInterval, cfg.MemoryCatchUpInterval = 100*time.Millisecond, time.Hour, catchUp
		return startServer(t, cfg)
	}
	b := instance(url, schema, 200*time.Millisecond)
	sep := "?"
	if strings.Contains(url, "?") {
		sep = "&"
	}
	w := instance(url+sep+"search_path="+schema, "", time.Hour)
	if ch := w.m.pg.MemoryChannel(); ch != "cairn_memory" || ch == b.m.pg.MemoryChannel() {
		t.Fatalf("the writer notifies on %q, the follower listens on %q", ch, b.m.pg.MemoryChannel())
	}

	u := w.register(t, "cluster-catch-up")
	w.topUp(t, u, 1000)
	found := func(query string) []string { // the version ids b finds
		r := b.do(t, "POST", "/v1/memory/vector-search", u.Key, map[string]any{"query": query, "minScore": 0.2}).must(t, 200)
		var ids []string
		for _, h := range r.JSON["results"].([]any) {
			ids = append(ids, h.(map[string]any)["id"].(string))
		}
		return ids
	}
	id := w.do(t, "POST", "/v1/memory", u.Key, map[string]any{"key": "notes/kite", "content": "a red kite soaring"}).must(t, 201).str("id")
	eventuallyEvery(t, "the follower finds a memory it was never notified of", 250*time.Millisecond, func() bool {
		return slices.Equal(found("kite"), []string{id})
	})
	w.do(t, "DELETE", "/v1/memory/"+id, u.Key, nil).must(t, 200)
	eventually(t, "the follower drops a memory deleted without its notification", func() bool {
		return b.m.memory.Vectors.Space(u.ID, "hash-v1").Vectors == 0
	})
	logs := b.logs.String()
	if !strings.Contains(logs, "the periodic catch-up found memory changes of other instances that were not heard") {
		t.Fatalf("no periodic catch-up logged:\n%s", logs)
	}
	if strings.Contains(logs, "listening for memory changes failed") {
		t.Fatalf("the follower's listening connection failed:\n%s", logs)
	}
}
