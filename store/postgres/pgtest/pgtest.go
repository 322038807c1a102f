// Package pgtest gives tests a PostgreSQL server and a throw-away schema:
// URL reads CAIRN_TEST_POSTGRES_URL (skipping the test when it is unset,
// failing it when CAIRN_REQUIRE_POSTGRES=1, as CI sets), and Schema names a
// new schema that is dropped with everything in it when the test ends.
//
// It is imported by tests only. It imports pgx and the standard library.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"os"
	"testing"

	"github.com/jackc/pgx/v5"
)

// URL returns CAIRN_TEST_POSTGRES_URL, or skips (or, with
// CAIRN_REQUIRE_POSTGRES=1, fails) the test when it is not set.
func URL(tb testing.TB) string {
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

// Schema returns the name of a schema that does not exist yet and drops it,
// with everything in it, when the test ends.
func Schema(tb testing.TB, url string) string {
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
