package postgres

import (
	"context"
	"strings"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

func TestMigrationsEmbedded(t *testing.T) {
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	if len(ms) == 0 || ms[0].version != 1 || ms[0].name != "0001_init.sql" {
		t.Fatalf("first migration = %+v, want 0001_init.sql", ms)
	}
	for i, m := range ms {
		// Versions increase; a gap is allowed (numbers are reserved ahead
		// of the files that take them, which may land in any order).
		if i > 0 && m.version <= ms[i-1].version {
			t.Fatalf("migration %s has version %d, after %d", m.name, m.version, ms[i-1].version)
		}
		if strings.TrimSpace(m.sql) == "" || len(m.sum) != 32 {
			t.Fatalf("migration %s is empty or has no checksum", m.name)
		}
	}
}

// appliedVersions returns the versions recorded in schema's
// schema_migrations.
func appliedVersions(t *testing.T, url, schema string) []int {
	t.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, url)
	if err != nil {
		t.Fatal(err)
	}
	defer conn.Close(ctx)
	rows, err := conn.Query(ctx, "SELECT version FROM "+pgx.Identifier{schema, "schema_migrations"}.Sanitize()+" ORDER BY version")
	if err != nil {
		t.Fatal(err)
	}
	vs, err := pgx.CollectRows(rows, pgx.RowTo[int])
	if err != nil {
		t.Fatal(err)
	}
	return vs
}

func wantAllApplied(t *testing.T, url, schema string) {
	t.Helper()
	ms, err := migrations()
	if err != nil {
		t.Fatal(err)
	}
	got := appliedVersions(t, url, schema)
	if len(got) != len(ms) {
		t.Fatalf("schema_migrations holds %v, want the %d embedded migrations once each", got, len(ms))
	}
	for i, m := range ms {
		if got[i] != m.version {
			t.Fatalf("schema_migrations holds %v, want version %d at %d", got, m.version, i)
		}
	}
}

func TestMigrate(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	t.Run("Idempotent", func(t *testing.T) {
		schema := newSchema(t, url)
		first := openTest(t, Options{Schema: schema})
		if err := first.PutSetting(ctx, "kept", []byte("yes")); err != nil {
			t.Fatal(err)
		}
		second := openTest(t, Options{Schema: schema})
		if v, err := second.Setting(ctx, "kept"); err != nil || string(v) != "yes" {
			t.Fatalf("Setting after a second Open = %q, %v; want the first store's value", v, err)
		}
		if idx, err := second.NextDepositIndex(ctx); err != nil || idx != 0 {
			t.Fatalf("NextDepositIndex = %d, %v; want 0 (counter row not inserted twice)", idx, err)
		}
		wantAllApplied(t, url, schema)
	})
	t.Run("ConcurrentOpen", func(t *testing.T) {
		schema := newSchema(t, url)
		const n = 4
		dbs := make([]*DB, n)
		errs := make([]error, n)
		var wg sync.WaitGroup
		start := make(chan struct{})
		for i := 0; i < n; i++ {
			wg.Go(func() {
				<-start
				dbs[i], errs[i] = Open(ctx, url, Options{Schema: schema})
			})
		}
		close(start)
		wg.Wait()
		for i, err := range errs {
			if err != nil {
				t.Fatalf("Open %d of %d on a new schema: %v", i+1, n, err)
			}
			defer dbs[i].Close()
		}
		wantAllApplied(t, url, schema)
		for i, db := range dbs {
			if _, err := db.EnsureDeveloper(ctx, cairn.NewID()); err != nil {
				t.Fatalf("store %d: %v", i, err)
			}
		}
	})
	t.Run("ErrEditedMigration", func(t *testing.T) {
		schema := newSchema(t, url)
		openTest(t, Options{Schema: schema}).Close()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			t.Fatal(err)
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "UPDATE "+pgx.Identifier{schema, "schema_migrations"}.Sanitize()+
			" SET checksum = '\\x00' WHERE version = 1"); err != nil {
			t.Fatal(err)
		}
		if db, err := Open(ctx, url, Options{Schema: schema}); err == nil {
			db.Close()
			t.Fatal("Open succeeded on a schema whose applied migration differs from the embedded one")
		} else if !strings.Contains(err.Error(), "edited") {
			t.Fatalf("Open error = %v, want the edited-migration error", err)
		}
	})
}
