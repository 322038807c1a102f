package postgres

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// testURL returns CAIRN_TEST_POSTGRES_URL. When it is unset the test is
// skipped, or fails when CAIRN_REQUIRE_POSTGRES=1 (CI).
func testURL(tb testing.TB) string {
	tb.Helper()
	url := os.Getenv("CAIRN_TEST_POSTGRES_URL")
	if url == "" {
		if os.Getenv("CAIRN_REQUIRE_POSTGRES") == "1" {
			tb.Fatal("CAIRN_REQUIRE_POSTGRES=1 but CAIRN_TEST_POSTGRES_URL is not set")
		}
		tb.Skip("CAIRN_TEST_POSTGRES_URL is not set")
	}
	return url
}

// newSchema returns the name of a schema that does not exist yet and drops
// it, with everything in it, when the test ends.
func newSchema(tb testing.TB, url string) string {
	tb.Helper()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	name := "cairn_test_" + hex.EncodeToString(b[:])
	tb.Cleanup(func() {
		ctx := context.Background()
		conn, err := pgx.Connect(ctx, url)
		if err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		if _, err := conn.Exec(ctx, "DROP SCHEMA IF EXISTS "+pgx.Identifier{name}.Sanitize()+" CASCADE"); err != nil {
			tb.Errorf("drop schema %s: %v", name, err)
		}
	})
	return name
}

// openTest opens a store on a fresh schema, closed when the test ends
// (before the schema is dropped).
func openTest(tb testing.TB, opts Options) *DB {
	tb.Helper()
	url := testURL(tb)
	if opts.Schema == "" {
		opts.Schema = newSchema(tb, url)
	}
	db, err := Open(context.Background(), url, opts)
	if err != nil {
		tb.Fatalf("Open: %v", err)
	}
	tb.Cleanup(func() { db.Close() })
	return db
}
