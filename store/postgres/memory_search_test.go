package postgres

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
	"github.com/cairn-dev/cairn/store/storetest"
)

// TestMemorySearchWithoutTrigram runs the search suite where pg_trgm
// cannot be created (the store's role may not create extensions in its
// database, which has none), so that migrations 0009 and 0015 leave key
// search without memory_search_key_trgm_idx: LIKE over the agent's keys.
func TestMemorySearchWithoutTrigram(t *testing.T) {
	ctx := context.Background()
	unpriv := pgtest.NewUnprivileged(t, testURL(t))
	open := func(t *testing.T) *DB {
		db, err := Open(ctx, unpriv.Schema(t), Options{})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return db
	}
	db := open(t)
	var canCreate, trgm, index bool
	if err := db.pool.QueryRow(ctx, `SELECT has_database_privilege(current_database(), 'CREATE'),
		EXISTS (SELECT FROM pg_extension WHERE extname = 'pg_trgm'),
		to_regclass('memory_search_key_trgm_idx') IS NOT NULL`).Scan(&canCreate, &trgm, &index); err != nil {
		t.Fatal(err)
	}
	db.Close()
	if canCreate || trgm || index {
		t.Fatalf("may create in the database %v, pg_trgm installed %v, trigram index %v: want none", canCreate, trgm, index)
	}
	storetest.RunMemorySearchTests(t, func(t *testing.T) storetest.MemorySearchStore { return open(t) })
}
