// Package pgtest gives tests a PostgreSQL server and a throw-away schema:
// URL reads CAIRN_TEST_POSTGRES_URL (skipping the test when it is unset,
// failing it when CAIRN_REQUIRE_POSTGRES=1, as CI sets), and Schema names a
// new schema that is dropped with everything in it when the test ends.
// NewUnprivileged gives a new database where the store's role may not
// create extensions, for the paths that do without them.
//
// It is imported by tests only. It imports pgx, internal/testenv and the
// standard library.
package pgtest

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"net/url"
	"testing"

	"github.com/cairn-dev/cairn/internal/testenv"
	"github.com/jackc/pgx/v5"
)

// URL returns CAIRN_TEST_POSTGRES_URL, or skips (or, with
// CAIRN_REQUIRE_POSTGRES=1, fails) the test when it is not set.
func URL(tb testing.TB) string {
	tb.Helper()
	return testenv.Env(tb, "CAIRN_TEST_POSTGRES_URL", "CAIRN_REQUIRE_POSTGRES", "")
}

// Schema returns the name of a schema that does not exist yet and drops it,
// with everything in it, when the test ends.
func Schema(tb testing.TB, url string) string {
	tb.Helper()
	name := "cairn_test_" + randomHex(tb)
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

// Unprivileged is a new database on the server of URL and a new role that
// may connect to it and owns the schemas Schema makes there, but is no
// superuser and may not CREATE in the database: CREATE EXTENSION (even of
// a trusted extension such as pg_trgm) fails there with
// insufficient_privilege, and the new database has no extension but
// plpgsql, as a database whose owner is not the store's role. Making it
// needs a superuser (or a role with CREATEDB and CREATEROLE) at URL.
type Unprivileged struct {
	admin string // URL of the new database, as the caller's role
	user  string // the new role
	pass  string
	base  *url.URL
}

// NewUnprivileged creates the database and the role, both dropped when the
// test ends (after the cleanups the test registers later, such as closing
// its stores).
func NewUnprivileged(tb testing.TB, serverURL string) *Unprivileged {
	tb.Helper()
	ctx := context.Background()
	base, err := url.Parse(serverURL)
	if err != nil {
		tb.Fatalf("parse %s: %v", serverURL, err)
	}
	name := "cairn_test_unpriv_" + randomHex(tb)
	u := &Unprivileged{user: name, pass: randomHex(tb), base: base}
	conn, err := pgx.Connect(ctx, serverURL)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	ident := pgx.Identifier{name}.Sanitize()
	tb.Cleanup(func() {
		conn, err := pgx.Connect(ctx, serverURL)
		if err != nil {
			tb.Errorf("drop database %s: %v", name, err)
			return
		}
		defer conn.Close(ctx)
		for _, stmt := range []string{"DROP DATABASE IF EXISTS " + ident + " WITH (FORCE)", "DROP ROLE IF EXISTS " + ident} {
			if _, err := conn.Exec(ctx, stmt); err != nil {
				tb.Errorf("%s: %v", stmt, err)
			}
		}
	})
	// The database is the caller's, created from template0 (no extension
	// a template database may hold); the role may only connect to it.
	for _, stmt := range []string{
		"CREATE ROLE " + ident + " LOGIN NOSUPERUSER NOCREATEDB NOCREATEROLE PASSWORD '" + u.pass + "'",
		"CREATE DATABASE " + ident + " TEMPLATE template0",
		"REVOKE ALL ON DATABASE " + ident + " FROM PUBLIC",
		"GRANT CONNECT, TEMPORARY ON DATABASE " + ident + " TO " + ident,
	} {
		if _, err := conn.Exec(ctx, stmt); err != nil {
			tb.Fatalf("%s: %v", stmt, err)
		}
	}
	admin := *base
	admin.Path = "/" + name
	u.admin = admin.String()
	return u
}

// Schema returns the URL of a new schema of the database, owned by the
// role and the search_path of the URL's connections, which connect as the
// role: a store opened on it with no schema of its own creates its tables
// there.
func (u *Unprivileged) Schema(tb testing.TB) string {
	tb.Helper()
	ctx := context.Background()
	conn, err := pgx.Connect(ctx, u.admin)
	if err != nil {
		tb.Fatal(err)
	}
	defer conn.Close(ctx)
	name := "cairn_test_" + randomHex(tb)
	if _, err := conn.Exec(ctx, "CREATE SCHEMA "+pgx.Identifier{name}.Sanitize()+" AUTHORIZATION "+pgx.Identifier{u.user}.Sanitize()); err != nil {
		tb.Fatal(err)
	}
	as := *u.base
	as.User = url.UserPassword(u.user, u.pass)
	as.Path = "/" + u.user
	q := as.Query()
	q.Set("search_path", name)
	as.RawQuery = q.Encode()
	return as.String()
}

func randomHex(tb testing.TB) string {
	tb.Helper()
	var b [8]byte
	if _, err := rand.Read(b[:]); err != nil {
		tb.Fatal(err)
	}
	return hex.EncodeToString(b[:])
}
