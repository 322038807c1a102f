package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

func testURL(tb testing.TB) string {
	tb.Helper()
	return pgtest.URL(tb)
}

func newSchema(tb testing.TB, url string) string {
	tb.Helper()
	return pgtest.Schema(tb, url)
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

// receive waits for the next value of ch, failing the test when none comes
// within 20s.
func receive[T any](tb testing.TB, ch <-chan T, what string) T {
	tb.Helper()
	select {
	case v := <-ch:
		return v
	case <-time.After(20 * time.Second):
		tb.Fatalf("not within 20s: %s", what)
		panic("unreachable")
	}
}
