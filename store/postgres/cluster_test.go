package postgres

import (
	"context"
	"io"
	"log/slog"
	"strings"
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
// the schema's channel with its number, and a listener of the old
// database-wide channel (a process of the release before, during a
// rolling upgrade); a listener of another schema hears nothing. Each
// listener is told 0 when it starts. A schema name too long for a channel
// works too.
func TestListVersionNotified(t *testing.T) {
	url := testURL(t)
	long := newSchema(t, url) + "_" + strings.Repeat("l", 30) // 58 bytes, 77 with the prefix: hashed
	t.Cleanup(func() {
		conn, err := pgx.Connect(context.Background(), url)
		if err != nil {
			t.Errorf("drop schema %s: %v", long, err)
			return
		}
		defer conn.Close(context.Background())
		if _, err := conn.Exec(context.Background(), "DROP SCHEMA IF EXISTS "+pgx.Identifier{long}.Sanitize()+" CASCADE"); err != nil {
			t.Errorf("drop schema %s: %v", long, err)
		}
	})
	for name, schema := range map[string]string{"short": newSchema(t, url), "long": long} {
		t.Run(name, func(t *testing.T) {
			testListVersionNotified(t, openTest(t, Options{Schema: schema}))
		})
	}
}

func testListVersionNotified(t *testing.T, db *DB) {
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	other := openTest(t, Options{})
	if ch := db.ListVersionChannel(); len(ch) > 63 || !strings.HasPrefix(ch, "cairn_list_version.") || ch == other.ListVersionChannel() {
		t.Fatalf("channels %q and %q", ch, other.ListVersionChannel())
	}
	var wg sync.WaitGroup
	listen := func(db *DB) <-chan uint64 {
		got := make(chan uint64, 16)
		wg.Go(func() {
			db.ListenListVersions(ctx, 50*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)), func(v uint64) { got <- v })
		})
		if v := receive(t, got, "the call at start"); v != 0 {
			t.Fatalf("first call %d, want 0", v)
		}
		return got
	}
	defer func() { cancel(); wg.Wait() }()
	got, elsewhere := listen(db), listen(other)
	old, err := db.Listen(ctx, "cairn_list_version")
	if err != nil {
		t.Fatal(err)
	}
	defer old.Close()
	v := cairn.ListVersion{Version: 1, BuiltAt: time.Now(), Root: "0x01", Sources: map[string]cairn.SourceVersion{}}
	if err := db.CommitListVersion(ctx, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := receive(t, got, "the notification of version 1"); n != 1 {
		t.Fatalf("notified %d, want 1", n)
	}
	wctx, wcancel := context.WithTimeout(ctx, 20*time.Second)
	defer wcancel()
	if p, err := old.Next(wctx); err != nil || p != "1" {
		t.Fatalf("the old channel: %q, %v", p, err)
	}
	// A version of the other schema marks the end: its listener hears
	// that one, and nothing before.
	if err := other.CommitListVersion(ctx, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	if n := receive(t, elsewhere, "the notification of the other schema's version"); n != 1 {
		t.Fatalf("the other schema's listener heard %d", n)
	}
	select {
	case n := <-elsewhere:
		t.Fatalf("the other schema's listener heard %d more", n)
	case n := <-got:
		t.Fatalf("the listener heard %d from the other schema", n)
	default:
	}
}

// TestChannelOf: a channel names its schema, or a hash of it when the name
// would pass PostgreSQL's 63 bytes; the hash is the same for the same
// name and differs for names that differ past the limit only.
func TestChannelOf(t *testing.T) {
	if got := channelOf("cairn_list_version", "s1"); got != "cairn_list_version.s1" {
		t.Fatalf("short: %q", got)
	}
	if got := channelOf("cairn_list_version", ""); got != "cairn_list_version" {
		t.Fatalf("no schema: %q", got)
	}
	fits := strings.Repeat("f", 63-len("cairn_list_version."))
	if got := channelOf("cairn_list_version", fits); got != "cairn_list_version."+fits {
		t.Fatalf("63 bytes: %q", got)
	}
	a, b := strings.Repeat("s", 62)+"a", strings.Repeat("s", 62)+"b"
	ca, cb := channelOf("cairn_list_version", a), channelOf("cairn_list_version", b)
	if len(ca) > 63 || len(cb) > 63 || ca == cb || ca != channelOf("cairn_list_version", a) ||
		!strings.HasPrefix(ca, "cairn_list_version.") || strings.Contains(ca, "sss") {
		t.Fatalf("long names: %q, %q", ca, cb)
	}
}
