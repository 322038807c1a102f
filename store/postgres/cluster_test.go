package postgres

import (
	"context"
	"io"
	"log/slog"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// waitFor polls cond every 20 ms until it holds, failing the test after
// a generous deadline.
func waitFor(t *testing.T, what string, cond func() bool) {
	t.Helper()
	deadline := time.Now().Add(20 * time.Second)
	for !cond() {
		if time.Now().After(deadline) {
			t.Fatalf("not within 20s: %s", what)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// TestLeaderLock: of two contenders on one schema one wins; when the
// winner's connection closes, the other takes the lock. A contender on
// another schema is not in the way.
func TestLeaderLock(t *testing.T) {
	ctx := context.Background()
	a := openTest(t, Options{})
	b, err := Open(ctx, testURL(t), Options{Schema: a.schema})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	la, lb := a.LeaderLock(), b.LeaderLock()
	defer la.Release()
	defer lb.Release()
	if got, err := la.TryAcquire(ctx); err != nil || !got {
		t.Fatalf("first contender: %v %v", got, err)
	}
	if got, err := lb.TryAcquire(ctx); err != nil || got {
		t.Fatalf("second contender won too: %v %v", got, err)
	}
	if got, err := la.TryAcquire(ctx); err != nil || !got {
		t.Fatalf("the holder lost the lock: %v %v", got, err)
	}
	other := openTest(t, Options{}).LeaderLock()
	defer other.Release()
	if got, err := other.TryAcquire(ctx); err != nil || !got {
		t.Fatalf("a contender on another schema: %v %v", got, err)
	}

	// The winner's connection ends from the server's side, as when its
	// process dies: its next check reports the loss, the other wins.
	kill(t, la.conn.PgConn().PID())
	if got, err := la.TryAcquire(ctx); got || err == nil {
		t.Fatalf("the holder of a killed connection still leads: %v %v", got, err)
	}
	waitFor(t, "the second contender takes the lock", func() bool {
		got, err := lb.TryAcquire(ctx)
		return err == nil && got
	})
	if got, err := la.TryAcquire(ctx); err != nil || got {
		t.Fatalf("the first contender took it back: %v %v", got, err)
	}
	lb.Release()
	waitFor(t, "the first contender takes the released lock", func() bool {
		got, err := la.TryAcquire(ctx)
		return err == nil && got
	})
}

// kill ends a backend from another session.
func kill(t *testing.T, pid uint32) {
	t.Helper()
	conn, err := pgx.Connect(context.Background(), testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	if _, err := conn.Exec(context.Background(), "SELECT pg_terminate_backend($1)", int32(pid)); err != nil {
		t.Fatal(err)
	}
}

// TestLead runs two processes' Lead loops on one schema: exactly one
// leads; when the leader stops, the other leads within seconds; a leader
// whose connection is killed by the server stops leading, and one of it
// and a third contender leads again.
func TestLead(t *testing.T) {
	a := openTest(t, Options{})
	b, err := Open(context.Background(), testURL(t), Options{Schema: a.schema})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	var leading [3]atomic.Bool
	var ended [3]atomic.Int32 // leaderships ended
	var overlap atomic.Bool
	var mu sync.Mutex
	count := func() int {
		n := 0
		for i := range leading {
			if leading[i].Load() {
				n++
			}
		}
		return n
	}
	run := func(db *DB, i int) (stop func()) {
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			db.Lead(ctx, 50*time.Millisecond, logger, nil, func(ctx context.Context) {
				mu.Lock()
				leading[i].Store(true)
				if count() > 1 {
					overlap.Store(true)
				}
				mu.Unlock()
				<-ctx.Done()
				leading[i].Store(false)
				ended[i].Add(1)
			})
		}()
		var once sync.Once
		return func() { once.Do(func() { cancel(); <-done }) }
	}
	stopA := run(a, 0)
	defer stopA()
	stopB := run(b, 1)
	defer stopB()
	waitFor(t, "one leader", func() bool { return count() == 1 })
	first := 0
	if leading[1].Load() {
		first = 1
	}
	if first == 0 {
		stopA()
	} else {
		stopB()
	}
	waitFor(t, "the other takes over", func() bool { return leading[1-first].Load() })

	if overlap.Load() {
		t.Fatal("two contenders led at once")
	}

	// Third contender, then the leader's connection is killed (the killed
	// leader may still be leading until its next check: no overlap is
	// asserted from here).
	c, err := Open(context.Background(), testURL(t), Options{Schema: a.schema})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	stopC := run(c, 2)
	defer stopC()
	var pid int32
	conn, err := pgx.Connect(context.Background(), testURL(t))
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(context.Background())
	err = conn.QueryRow(context.Background(), "SELECT pid FROM pg_locks WHERE locktype = 'advisory' AND granted AND "+
		"((classid::bigint << 32) | objid::bigint) = $1", leaderKey(a.schema)).Scan(&pid)
	if err != nil {
		t.Fatalf("the holder of the leader lock: %v", err)
	}
	kill(t, uint32(pid))
	waitFor(t, "the killed leader resigns and one contender leads", func() bool {
		return ended[1-first].Load() == 1 && count() == 1
	})
}

// TestListVersionNotified: a committed list version reaches a listener of
// the channel with its number; the listener is told 0 when it starts.
func TestListVersionNotified(t *testing.T) {
	db := openTest(t, Options{})
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	got := make(chan uint64, 16)
	done := make(chan struct{})
	go func() {
		defer close(done)
		db.ListenListVersions(ctx, 50*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)), func(v uint64) { got <- v })
	}()
	defer func() { cancel(); <-done }()
	if v := <-got; v != 0 {
		t.Fatalf("first call %d, want 0", v)
	}
	v := cairn.ListVersion{Version: 1, BuiltAt: time.Now(), Root: "0x01", Sources: map[string]cairn.SourceVersion{}}
	if err := db.CommitListVersion(ctx, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	for {
		select {
		case n := <-got:
			if n == 1 {
				return
			}
		case <-time.After(20 * time.Second):
			t.Fatal("no notification of version 1 within 20s")
		}
	}
}
