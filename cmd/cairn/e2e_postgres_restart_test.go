package main

import (
	"encoding/json"
	"fmt"
	"strings"
	"sync"
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

	type outcome struct {
		status     int
		key, id    string
		code       string
		retryAfter string
		err        error
	}
	var (
		mu       sync.Mutex
		outcomes []outcome
		stop     = make(chan struct{})
		wg       sync.WaitGroup
	)
	for w := range 4 {
		wg.Go(func() {
			for i := 0; ; i++ {
				select {
				case <-stop:
					return
				default:
				}
				key := fmt.Sprintf("w%d-%d", w, i)
				r, err := ts.try(t, "POST", "/v1/memory", a.Key, map[string]any{"key": key, "content": "written under load " + key})
				o := outcome{key: key, err: err}
				if err == nil {
					o.status, o.id, o.code, o.retryAfter = r.Status, r.str("id"), r.str("code"), r.Header.Get("Retry-After")
				}
				mu.Lock()
				outcomes = append(outcomes, o)
				mu.Unlock()
				if o.status == 503 {
					time.Sleep(20 * time.Millisecond)
				}
			}
		})
	}
	acknowledged := func() int {
		mu.Lock()
		defer mu.Unlock()
		n := 0
		for _, o := range outcomes {
			if o.status == 201 {
				n++
			}
		}
		return n
	}
	for deadline := time.Now().Add(30 * time.Second); acknowledged() < 20; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatal("no writes acknowledged before the restart")
		}
	}
	if !ts.m.Leading() {
		t.Fatal("the only instance does not lead")
	}
	logsBefore := len(ts.logs.String())
	pg.Restart()
	before := acknowledged()
	// Serving again without a restart of its own: writes are acknowledged
	// after PostgreSQL's restart (the bound only ends a test that hangs).
	for deadline := time.Now().Add(60 * time.Second); acknowledged() < before+20; time.Sleep(10 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("%d writes acknowledged in the 60 s after PostgreSQL restarted", acknowledged()-before)
		}
	}
	close(stop)
	wg.Wait()
	// The leader lock and the connection listening for memory changes
	// come back: the instance leads again, and caught up with the changes
	// it could not hear while the connection was down.
	for deadline := time.Now().Add(30 * time.Second); !ts.m.Leading() ||
		!strings.Contains(ts.logs.String()[logsBefore:], "caught up with the memory changes of other instances"); time.Sleep(50 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("leading %v after the restart; logs since:\n%s", ts.m.Leading(), ts.logs.String()[logsBefore:])
		}
	}

	failed := 0
	for _, o := range outcomes {
		switch {
		case o.err != nil:
			t.Errorf("%s: %v", o.key, o.err)
		case o.status == 201:
		case o.status == 503 && o.code == "unavailable" && o.retryAfter != "":
			failed++
		default:
			t.Errorf("%s: status %d, code %q, Retry-After %q", o.key, o.status, o.code, o.retryAfter)
		}
	}
	if failed == 0 {
		t.Log("no write was in flight during the restart")
	}
	// Each acknowledged write cost 5 credits; the failed ones nothing.
	want := credits - 5*acknowledged()
	for deadline := time.Now().Add(30 * time.Second); ts.balance(t, a.Key) != want; time.Sleep(100 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("balance %d, want %d: %d acknowledged writes, %d failed", ts.balance(t, a.Key), want, acknowledged(), failed)
		}
	}
	for _, o := range outcomes {
		if o.status != 201 {
			continue
		}
		r := ts.do(t, "GET", "/v1/memory/"+o.id, a.Key, nil).must(t, 200)
		var m struct{ Key, Content string }
		if err := json.Unmarshal(r.Body, &m); err != nil || m.Key != o.key || m.Content != "written under load "+o.key {
			t.Fatalf("acknowledged %s: %s", o.key, r.Body)
		}
	}
	t.Logf("%d writes acknowledged, %d failed cleanly during the restart", acknowledged(), failed)
}
