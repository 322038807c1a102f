package postgres

import (
	"context"
	"fmt"
	"slices"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// inlined creates a memory of the agent whose version's content is in its
// record, so that a read of it is logged.
func inlined(t *testing.T, db *DB, agent, key string) *cairn.MemoryVersion {
	t.Helper()
	t0 := time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)
	m := &cairn.Memory{ID: cairn.NewID(), AgentID: agent, Type: "semantic", Key: key, Visibility: "private",
		Tags: []string{}, CreatedAt: t0, UpdatedAt: t0}
	v := &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0, Inlined: true, Inline: []byte("x")}
	if err := db.CreateMemoryVersion(context.Background(), m, v, nil, nil); err != nil {
		t.Fatal(err)
	}
	return v
}

// readLogged reads the version as the agent and returns the entry logged.
func readLogged(t *testing.T, db *DB, agent, versionID, reqID string) cairn.AuditEntry {
	e := &cairn.AuditEntry{AgentID: agent, Action: cairn.AuditRead, RequestID: reqID}
	_, v, logged, err := db.ReadMemoryVersion(context.Background(), agent, versionID, time.Now(), e)
	if err != nil || !logged || v.ID != versionID || e.ID == "" || e.CreatedAt.IsZero() {
		t.Errorf("ReadMemoryVersion = %+v logged %v, %v; entry %+v", v, logged, err, e)
	}
	return *e
}

// auditRows counts the agent's read entries in the table, through other
// connections than db's.
func auditRows(t *testing.T, other *DB, agent string) int {
	t.Helper()
	var n int
	if err := other.pool.QueryRow(context.Background(), "SELECT count(*) FROM audit WHERE agent_id = $1 AND action = $2",
		agent, cairn.AuditRead).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// TestDeferredAudit: a read's entry waits (an interval too long to
// elapse) until ListAudit of its agent inserts it, that agent's only,
// as the read returned it; concurrent reads get one entry each; a group
// the database refuses waits and is inserted by the next ListAudit; a full
// queue makes a read insert its own; Close inserts what waits.
func TestDeferredAudit(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{AuditDefer: time.Hour, MaxConns: 16})
	other := openTest(t, Options{Schema: db.schema, AuditDefer: -1})
	va, vb := inlined(t, db, "agent-a", "notes/a"), inlined(t, db, "agent-b", "notes/b")

	ea, eb := readLogged(t, db, "agent-a", va.ID, "req-a"), readLogged(t, db, "agent-b", vb.ID, "req-b")
	if n := auditRows(t, other, "agent-a") + auditRows(t, other, "agent-b"); n != 0 {
		t.Fatalf("%d read entries in the table before the interval, want 0", n)
	}
	got, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{Action: cairn.AuditRead}, "", 10)
	if err != nil || len(got) != 1 || got[0].ID != ea.ID || !got[0].CreatedAt.Equal(ea.CreatedAt) || got[0].Resource != va.ID ||
		got[0].RequestID != "req-a" || fmt.Sprint(got[0].Detail) != fmt.Sprint(map[string]any{"key": "notes/a", "version": 1.0}) {
		t.Fatalf("ListAudit after the read = %+v, %v; want %+v", got, err, ea)
	}
	if n := auditRows(t, other, "agent-b"); n != 0 {
		t.Fatalf("agent-b: %d entries inserted by agent-a's listing, want 0", n)
	}

	t.Run("Concurrent", func(t *testing.T) {
		const readers, each = 24, 5
		ids := make(chan string, readers*each)
		var wg sync.WaitGroup
		for r := range readers {
			wg.Go(func() {
				for i := range each {
					ids <- readLogged(t, db, "agent-a", va.ID, fmt.Sprint("req-", r, "-", i)).ID
				}
			})
		}
		wg.Go(func() { // a listing among the reads inserts what waits meanwhile
			if _, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{}, "", 1); err != nil {
				t.Error(err)
			}
		})
		wg.Wait()
		close(ids)
		want := []string{ea.ID}
		for id := range ids {
			want = append(want, id)
		}
		es, err := db.ListAudit(ctx, "agent-a", cairn.AuditFilter{Action: cairn.AuditRead}, "", 10*readers*each)
		if err != nil {
			t.Fatal(err)
		}
		var have []string
		for _, e := range es {
			have = append(have, e.ID)
		}
		slices.Sort(want)
		slices.Sort(have)
		if !slices.Equal(have, want) {
			t.Fatalf("%d entries listed, want the %d reads' once each", len(have), len(want))
		}
	})

	t.Run("Refused", func(t *testing.T) {
		_, err := other.pool.Exec(ctx, `CREATE FUNCTION refuse() RETURNS trigger LANGUAGE plpgsql AS $$BEGIN RAISE EXCEPTION 'refused'; END$$;
			CREATE TRIGGER refuse BEFORE INSERT ON audit FOR EACH STATEMENT EXECUTE FUNCTION refuse()`)
		if err != nil {
			t.Fatal(err)
		}
		e := readLogged(t, db, "agent-c", inlined(t, db, "agent-c", "notes/c").ID, "req-c")
		if _, err := db.ListAudit(ctx, "agent-c", cairn.AuditFilter{}, "", 10); err == nil {
			t.Fatal("ListAudit while the group is refused: no error")
		}
		if _, err := other.pool.Exec(ctx, "DROP TRIGGER refuse ON audit"); err != nil {
			t.Fatal(err)
		}
		got, err := db.ListAudit(ctx, "agent-c", cairn.AuditFilter{}, "", 10)
		if err != nil || len(got) != 1 || got[0].ID != e.ID {
			t.Fatalf("ListAudit once the group is taken = %+v, %v; want %s", got, err, e.ID)
		}
	})

	t.Run("Full", func(t *testing.T) {
		v := inlined(t, db, "agent-d", "notes/d")
		db.audits.mu.Lock()
		db.audits.limit = len(db.audits.queue) + 2 // agent-b's waits
		db.audits.mu.Unlock()
		for i := range 3 {
			readLogged(t, db, "agent-d", v.ID, fmt.Sprint("req-", i))
		}
		if n := auditRows(t, other, "agent-d"); n != 1 {
			t.Fatalf("%d entries in the table with 2 waiting, want the third read's", n)
		}
	})

	db.Close()
	if n := auditRows(t, other, "agent-b"); n != 1 {
		t.Fatalf("agent-b: %d entries after Close, want 1", n)
	}
	if n := auditRows(t, other, "agent-d"); n != 3 {
		t.Fatalf("agent-d: %d entries after Close, want 3", n)
	}
	if eb.ID == "" {
		t.Fatal("agent-b's read was not logged")
	}
}

// TestDeferredAuditInterval: without a listing, the entries waiting are
// inserted by the timer, in one group.
func TestDeferredAuditInterval(t *testing.T) {
	db := openTest(t, Options{AuditDefer: time.Millisecond})
	other := openTest(t, Options{Schema: db.schema, AuditDefer: -1})
	v := inlined(t, db, "agent-a", "notes/a")
	for i := range 3 {
		readLogged(t, db, "agent-a", v.ID, fmt.Sprint("req-", i))
	}
	waitFor(t, "the entries inserted", func() bool { return auditRows(t, other, "agent-a") == 3 })
}

// TestReadAuditNotDeferred: with AuditDefer negative, a read's entry is in
// the table when the read returns (sqlReadLogged), and a refused read
// (expired) logs none.
func TestReadAuditNotDeferred(t *testing.T) {
	db := openTest(t, Options{AuditDefer: -1})
	v := inlined(t, db, "agent-a", "notes/a")
	e := readLogged(t, db, "agent-a", v.ID, "req")
	var resource string
	if err := db.pool.QueryRow(context.Background(), "SELECT resource FROM audit WHERE agent_id = $1 AND id = $2",
		"agent-a", e.ID).Scan(&resource); err != nil || resource != v.ID {
		t.Fatalf("the read's entry: %q, %v", resource, err)
	}
	m, err := db.UpdateMemory(context.Background(), "agent-a", v.ID, func(m *cairn.Memory) error {
		m.ExpiresAt = time.Now().Add(-time.Second)
		return nil
	}, nil)
	if err != nil {
		t.Fatal(err)
	}
	_, _, logged, err := db.ReadMemoryVersion(context.Background(), "agent-a", v.ID, time.Now(),
		&cairn.AuditEntry{AgentID: "agent-a", Action: cairn.AuditRead})
	if err != nil || logged || auditRows(t, db, "agent-a") != 1 {
		t.Fatalf("read of the expired memory %+v: logged %v, %v", m, logged, err)
	}
}
