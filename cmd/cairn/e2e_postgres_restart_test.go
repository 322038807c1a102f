package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// TestE2EPostgresRestartUnderLoad restarts the PostgreSQL server (one of
// the test's own) while agents write memories: a write in flight fails
// cleanly, 503 with Retry-After and the problem code "unavailable", never
// a 500; the service writes again once PostgreSQL is back, without a
// restart of its own; every acknowledged write is there afterwards, and
// the balance is what the acknowledged writes cost (a write that failed
// is refunded, once the store can take the refund).
func TestE2EPostgresRestartUnderLoad(t *testing.T) {
	pg := pgtest.Private(t)
	cfg := testConfig(t, t.TempDir())
	cfg.Store = pg.URL()
	cfg.WriteLimitPerAgent, cfg.RateLimitPerKey = 1000000, 1000000
	cfg.LeaderInterval = 200 * time.Millisecond
	ts := startServer(t, cfg)
	const credits = 100000
	a := ts.newAgent(t, credits)

	load := startFaultLoad(4, func(w, i int) (string, *response, error) {
		key := fmt.Sprintf("w%d-%d", w, i)
		r, err := ts.try(t, "POST", "/v1/memory", a.Key, map[string]any{"key": key, "content": "written under load " + key})
		return key, r, err
	})
	load.waitAcked(t, 20, "before the restart")
	if !ts.m.Leading() {
		t.Fatal("the only instance does not lead")
	}
	logsBefore := len(ts.logs.String())
	pg.Restart()
	// Serving again without a restart of its own: writes are acknowledged
	// after PostgreSQL's restart.
	load.waitAcked(t, load.acked()+20, "in the 60 s after PostgreSQL restarted")
	ids, failed := load.end(t)
	// The leader lock and the connection listening for memory changes
	// come back: the instance leads again, and caught up with the changes
	// it could not hear while the connection was down.
	for deadline := time.Now().Add(30 * time.Second); !ts.m.Leading() ||
		!strings.Contains(ts.logs.String()[logsBefore:], "caught up with the memory changes of other instances"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("leading %v after the restart; logs since:\n%s", ts.m.Leading(), ts.logs.String()[logsBefore:])
		}
	}

	if failed == 0 {
		t.Log("no write was in flight during the restart")
	}
	// Each acknowledged write cost 5 credits; the failed ones nothing.
	want := credits - 5*len(ids)
	for deadline := time.Now().Add(30 * time.Second); ts.balance(t, a.Key) != want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("balance %d, want %d: %d acknowledged writes, %d failed", ts.balance(t, a.Key), want, len(ids), failed)
		}
	}
	for id, key := range ids {
		r := ts.do(t, "GET", "/v1/memory/"+id, a.Key, nil).must(t, 200)
		var m struct{ Key, Content string }
		if err := json.Unmarshal(r.Body, &m); err != nil || m.Key != key || m.Content != "written under load "+key {
			t.Fatalf("acknowledged %s: %s", key, r.Body)
		}
	}
	t.Logf("%d writes acknowledged, %d failed cleanly during the restart", len(ids), failed)
}
