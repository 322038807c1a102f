package memory_test

import (
	"context"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	blobfs "github.com/cairn-dev/cairn/blob/fs"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// openPostgres opens a PostgreSQL store on a schema of the test's own
// (CAIRN_TEST_POSTGRES_URL), closed at the end of the test.
func openPostgres(t *testing.T, clock cairn.Clock) *postgres.DB {
	db, err := postgres.Open(context.Background(), pgtest.URL(t), postgres.Options{Schema: pgtest.Schema(t, pgtest.URL(t)), Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	return db
}

// TestGetLogsEachReadOncePostgres: on PostgreSQL, which reads a version
// and logs the read in one statement when the content is in the record,
// a read is logged exactly once with its key and version, whether the
// store logged it (inlined content) or the service (a blob's); a refused
// read (an expired memory, another agent's) is logged nowhere.
func TestGetLogsEachReadOncePostgres(t *testing.T) {
	ctx, clock := context.Background(), cairn.NewManualClock(t0)
	db := openPostgres(t, clock)
	blobs, err := blobfs.New(t.TempDir(), blobfs.Options{Clock: clock})
	if err != nil {
		t.Fatal(err)
	}
	s := &memory.Service{Store: db, Audit: db, Blobs: blobs, Clock: clock}
	content, ttl := "some text", "1h"
	write := func(key string) *memory.View {
		v, err := s.Create(ctx, "agent", &memory.Write{Type: "semantic", Key: key, Content: &content, ExpiresIn: &ttl})
		if err != nil {
			t.Fatal(err)
		}
		return v
	}
	inlined := write("inlined")
	s.InlineBytes = -1
	blobbed := write("blobbed")
	reads := func() []cairn.AuditEntry {
		t.Helper()
		es, err := db.ListAudit(ctx, "agent", cairn.AuditFilter{Action: cairn.AuditRead}, "", 100)
		if err != nil {
			t.Fatal(err)
		}
		return es
	}
	for i, w := range []*memory.View{inlined, blobbed} {
		got, err := s.Get(ctx, "agent", w.Version.ID, true, fmt.Sprint("req-", i))
		if err != nil || string(got.Content) != content {
			t.Fatalf("Get %s = %+v, %v", w.Memory.Key, got, err)
		}
		es := reads()
		if len(es) != i+1 || es[0].Resource != w.Version.ID || es[0].RequestID != fmt.Sprint("req-", i) ||
			fmt.Sprint(es[0].Detail) != fmt.Sprint(map[string]any{"key": w.Memory.Key, "version": 1.0}) {
			t.Fatalf("read entries after reading %s: %+v", w.Memory.Key, es)
		}
	}
	if _, err := s.Get(ctx, "other", inlined.Version.ID, true, "req-other"); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("another agent's read: %v", err)
	}
	clock.Advance(time.Hour)
	if _, err := s.Get(ctx, "agent", inlined.Version.ID, true, "req-expired"); !cairn.IsCode(err, cairn.EEXPIRED) {
		t.Fatalf("expired read: %v", err)
	}
	if es := reads(); len(es) != 2 {
		t.Fatalf("read entries after the refused reads: %+v", es)
	}
}
