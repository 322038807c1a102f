package postgres

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestMemoryChangesNotified: every commit that changes a memory's head or
// removes it (a new memory, a new version, an update, a stored server
// vector, a deleted version, the last one) reaches the processes
// following the schema's changes, in commit order, but not the process
// that made it; a write that fails notifies nothing; a process on another
// schema hears none of them.
func TestMemoryChangesNotified(t *testing.T) {
	ctx := context.Background()
	t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	a := openTest(t, Options{})
	b, err := Open(ctx, testURL(t), Options{Schema: a.schema})
	if err != nil {
		t.Fatal(err)
	}
	defer b.Close()
	other := openTest(t, Options{})
	if a.MemoryChannel() != "cairn_memory."+a.schema || other.MemoryChannel() == a.MemoryChannel() {
		t.Fatalf("channels %q and %q", a.MemoryChannel(), other.MemoryChannel())
	}
	if ch := channelOf("cairn_memory", strings.Repeat("s", 63)); len(ch) > 63 || !strings.HasPrefix(ch, "cairn_memory.") {
		t.Fatalf("the channel of a long schema name: %q", ch)
	}
	logger := slog.New(slog.NewTextHandler(io.Discard, nil))
	follow := func(db *DB) (<-chan MemoryChange, func()) {
		t.Helper()
		feed, err := db.ListenMemoryChanges(ctx)
		if err != nil {
			t.Fatal(err)
		}
		got := make(chan MemoryChange, 64)
		fctx, cancel := context.WithCancel(ctx)
		done := make(chan struct{})
		go func() {
			defer close(done)
			db.FollowMemoryChanges(fctx, feed, 50*time.Millisecond, logger, func() {}, func(c MemoryChange) { got <- c })
		}()
		return got, func() { cancel(); <-done }
	}
	heard, stopB := follow(b)
	defer stopB()
	own, stopA := follow(a)
	defer stopA()
	elsewhere, stopOther := follow(other)
	defer stopOther()

	m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Type: "semantic", Key: "notes/a", Visibility: "private",
		Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
	if err := a.CreateMemoryVersion(ctx, m, &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0}, nil, nil); err != nil {
		t.Fatal(err)
	}
	dup := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-a", Type: "semantic", Key: "notes/a", Visibility: "private",
		Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
	if err := a.CreateMemoryVersion(ctx, dup, &cairn.MemoryVersion{ID: dup.ID, Version: 1, CreatedAt: t0}, nil, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
		t.Fatalf("a second memory of the key: %v", err)
	}
	v2 := &cairn.MemoryVersion{ID: cairn.NewID(), Version: 2, CreatedAt: t0}
	if err := a.CreateMemoryVersion(ctx, m, v2, nil, nil); err != nil {
		t.Fatal(err)
	}
	if _, err := a.UpdateMemory(ctx, "agent-a", m.ID, func(m *cairn.Memory) error { m.Importance = 0.9; return nil }, nil); err != nil {
		t.Fatal(err)
	}
	if err := a.SetServerEmbedding(ctx, "agent-a", v2.ID, &cairn.Embedding{Space: "server", Model: "m", Values: []float32{1}}); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.DeleteMemoryVersion(ctx, "agent-a", v2.ID, nil); err != nil {
		t.Fatal(err)
	}
	if _, _, err := a.DeleteMemoryVersion(ctx, "agent-a", m.ID, nil); err != nil {
		t.Fatal(err)
	}
	want := MemoryChange{AgentID: "agent-a", MemoryID: m.ID, Key: "notes/a"}
	for i, what := range []string{"create", "new version", "update", "server vector", "delete a version", "delete the last version"} {
		select {
		case c := <-heard:
			if c != want {
				t.Fatalf("change %d (%s): %+v, want %+v", i, what, c, want)
			}
		case <-time.After(20 * time.Second):
			t.Fatalf("change %d (%s) not heard within 20s", i, what)
		}
	}
	// A last change from b marks the end: a hears it, and nothing before.
	n := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent-b", Type: "semantic", Key: "notes/b", Visibility: "private",
		Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
	if err := b.CreateMemoryVersion(ctx, n, &cairn.MemoryVersion{ID: n.ID, Version: 1, CreatedAt: t0}, nil, nil); err != nil {
		t.Fatal(err)
	}
	select {
	case c := <-own:
		if c.Key != "notes/b" {
			t.Fatalf("a heard its own change %+v", c)
		}
	case <-time.After(20 * time.Second):
		t.Fatal("a did not hear b's change within 20s")
	}
	select {
	case c := <-heard:
		t.Fatalf("b heard a change more: %+v", c)
	case c := <-elsewhere:
		t.Fatalf("a process on another schema heard %+v", c)
	default:
	}
}

// TestConcurrentCreatesAllNotified: the notes of concurrent creates, sent
// after their commits in shared statements, reach a listener one each.
func TestConcurrentCreatesAllNotified(t *testing.T) {
	ctx := context.Background()
	a, b := openPair(t)
	feed, err := b.ListenMemoryChanges(ctx)
	if err != nil {
		t.Fatal(err)
	}
	heard := make(chan MemoryChange, 100)
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	go b.FollowMemoryChanges(fctx, feed, 50*time.Millisecond, slog.New(slog.NewTextHandler(io.Discard, nil)), func() {},
		func(c MemoryChange) { heard <- c })
	const n = 40
	errs := make(chan error, n)
	for i := range n {
		go func() {
			m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent", Type: "semantic", Key: fmt.Sprint("k", i), Visibility: "private", Tags: []string{}}
			errs <- a.CreateMemoryVersion(ctx, m, &cairn.MemoryVersion{ID: m.ID, Version: 1}, nil, nil)
		}()
	}
	for range n {
		if err := <-errs; err != nil {
			t.Fatal(err)
		}
	}
	keys := map[string]bool{}
	for len(keys) < n {
		select {
		case c := <-heard:
			if keys[c.Key] {
				t.Fatalf("%s heard twice", c.Key)
			}
			keys[c.Key] = true
		case <-time.After(20 * time.Second):
			t.Fatalf("heard %d of %d creates within 20s", len(keys), n)
		}
	}
}
