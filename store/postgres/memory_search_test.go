package postgres

import (
	"context"
	"fmt"
	"strconv"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
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

// TestMemorySearchTableMigration applies migration 0015 to a schema that
// holds memories from before it (the schema as 0014 left it, with the
// memories written then): memory_search is filled from them, so that
// full text, tags and keys find them as before.
func TestMemorySearchTableMigration(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	schema := newSchema(t, url)
	db := openTest(t, Options{Schema: schema})
	t0 := time.Unix(1_800_000_000, 0).UTC()
	for i, key := range []string{"Notes/Orbit", "notes/garden", "recipes/soup"} {
		body := []string{"launch window for the orbit", "tomatoes in the garden", "soup with garden tomatoes"}[i]
		m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent", Type: "semantic", Key: key, Importance: 0.5,
			Visibility: "private", Tags: []string{"t" + strconv.Itoa(i%2)}, CreatedAt: t0, UpdatedAt: t0}
		v := &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0, SearchText: &body}
		if err := db.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	// Back to the schema before 0015, the memories kept.
	if _, err := db.pool.Exec(ctx, `DROP TABLE memory_search; DROP FUNCTION memory_search_sync() CASCADE;
		CREATE INDEX memories_fts_idx ON memories USING gin (fts);
		CREATE INDEX memories_key_lower_idx ON memories (agent_id, key_lower) INCLUDE (key, expires_ns);
		DELETE FROM schema_migrations WHERE version = 15`); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openTest(t, Options{Schema: schema})
	wantAllApplied(t, url, schema)
	for _, tc := range []struct {
		q    cairn.MemorySearchQuery
		want string
	}{
		{cairn.MemorySearchQuery{Text: "garden"}, "[notes/garden recipes/soup]"},
		{cairn.MemorySearchQuery{Text: "orbit"}, "[Notes/Orbit]"},
		{cairn.MemorySearchQuery{Key: "notes/"}, "[Notes/Orbit notes/garden]"},
		{cairn.MemorySearchQuery{Key: "soup"}, "[recipes/soup]"},
		{cairn.MemorySearchQuery{Tags: []string{"t0"}}, "[Notes/Orbit recipes/soup]"},
		{cairn.MemorySearchQuery{Text: "tomatoes", Tags: []string{"t1"}}, "[notes/garden]"},
	} {
		tc.q.Limit, tc.q.Now = 20, t0
		if keys := searchedKeys(t, db, tc.q); keys != tc.want {
			t.Errorf("SearchMemories(%+v) after the migration = %v, want %s", tc.q, keys, tc.want)
		}
	}
}

// TestMemorySearchBounds checks the reads that stop at a bound, with and
// without the trigram index, with the bounds lowered: a key substring
// found in the agent's first keys (by key, upper case first) or, when
// they hold too few, in all of them; a full-text word held by more
// memories than a search ranks, ranked from its first ones by key, while
// the memories holding all the words, or a rarer word, are still found.
func TestMemorySearchBounds(t *testing.T) {
	ctx := context.Background()
	defer func(w, r int) { keyWindow, maxRanked = w, r }(keyWindow, maxRanked)
	keyWindow, maxRanked = 3, 3
	unpriv := pgtest.NewUnprivileged(t, testURL(t))
	for _, trgm := range []bool{true, false} {
		t.Run(fmt.Sprintf("trigram=%v", trgm), func(t *testing.T) {
			var db *DB
			if trgm {
				db = openTest(t, Options{Schema: newSchema(t, testURL(t))})
			} else {
				var err error
				if db, err = Open(ctx, unpriv.Schema(t), Options{}); err != nil {
					t.Fatal(err)
				}
				defer db.Close()
			}
			if got, err := db.keyTrigram(ctx); err != nil || got != trgm {
				t.Fatalf("keyTrigram = %v, %v; want %v", got, err, trgm)
			}
			t0 := time.Unix(1_800_000_000, 0).UTC()
			for key, body := range map[string]string{
				"B/XY": "one", "a/xy": "two", "b/0": "three", "c/xy": "four", "d/0": "five", "e/xy": "six",
				"k1": "common", "k2": "common", "k3": "common", "k4": "common common common", "k5": "common rare",
			} {
				m := &cairn.Memory{ID: cairn.NewID(), AgentID: "agent", Type: "semantic", Key: key, Importance: 0.5,
					Visibility: "private", CreatedAt: t0, UpdatedAt: t0}
				v := &cairn.MemoryVersion{ID: m.ID, Version: 1, CreatedAt: t0, SearchText: &body}
				if err := db.CreateMemoryVersion(ctx, m, v, nil, nil); err != nil {
					t.Fatal(err)
				}
			}
			for _, tc := range []struct {
				q    cairn.MemorySearchQuery
				want string
			}{
				{cairn.MemorySearchQuery{Key: "xy", Limit: 2}, "[B/XY a/xy]"},             // from the first three keys
				{cairn.MemorySearchQuery{Key: "xy", Limit: 3}, "[B/XY a/xy c/xy]"},        // they hold two: all keys
				{cairn.MemorySearchQuery{Key: "xy", Limit: 9}, "[B/XY a/xy c/xy e/xy]"},   // every match
				{cairn.MemorySearchQuery{Key: "/0", Limit: 9}, "[b/0 d/0]"},               // none in the first three
				{cairn.MemorySearchQuery{Text: "common", Limit: 9}, "[k1 k2 k3]"},         // the first three by key
				{cairn.MemorySearchQuery{Text: "common rare", Limit: 9}, "[k5 k1 k2 k3]"}, // both words first
				{cairn.MemorySearchQuery{Text: "zebra common rare", Limit: 9}, "[k5 k1 k2 k3]"},
				{cairn.MemorySearchQuery{Text: "zebra common rare", Limit: 2}, "[k5 k1]"},
				{cairn.MemorySearchQuery{Text: "rare -common", Limit: 9}, "[]"},
			} {
				tc.q.Now = t0
				if keys := searchedKeys(t, db, tc.q); keys != tc.want {
					t.Errorf("SearchMemories(%+v) = %v, want %s", tc.q, keys, tc.want)
				}
			}
		})
	}
}

// searchedKeys is the keys SearchMemories finds for the agent "agent", as
// fmt.Sprint prints them.
func searchedKeys(t *testing.T, db *DB, q cairn.MemorySearchQuery) string {
	t.Helper()
	got, err := db.SearchMemories(context.Background(), "agent", q)
	if err != nil {
		t.Fatal(err)
	}
	keys := []string{}
	for _, m := range got {
		keys = append(keys, m.Key)
	}
	return fmt.Sprint(keys)
}
