package postgres

import (
	"context"
	"crypto/sha256"
	"embed"
	"errors"
	"fmt"
	"hash/fnv"
	"io/fs"
	"path"
	"sort"
	"strconv"
	"strings"

	"github.com/jackc/pgx/v5"
	"github.com/jackc/pgx/v5/pgxpool"
)

// Migrations are files named NNNN_description.sql, applied in version
// order, each once. An applied migration must never be edited: Open fails
// when the checksum recorded for it differs from the embedded file. Add a
// new file instead.
//
//go:embed migrations/*.sql
var migrationFS embed.FS

type migration struct {
	version int
	name    string
	sql     string
	sum     []byte
}

// migrations returns the embedded migrations in version order.
func migrations() ([]migration, error) {
	files, err := fs.Glob(migrationFS, "migrations/*.sql")
	if err != nil {
		return nil, err
	}
	var out []migration
	seen := map[int]string{}
	for _, f := range files {
		name := path.Base(f)
		num, _, ok := strings.Cut(name, "_")
		v, err := strconv.Atoi(num)
		if !ok || err != nil || v <= 0 {
			return nil, fmt.Errorf("postgres: migration %q is not named NNNN_description.sql", name)
		}
		if prev, dup := seen[v]; dup {
			return nil, fmt.Errorf("postgres: migrations %q and %q share version %d", prev, name, v)
		}
		seen[v] = name
		body, err := migrationFS.ReadFile(f)
		if err != nil {
			return nil, err
		}
		sum := sha256.Sum256(body)
		out = append(out, migration{version: v, name: name, sql: string(body), sum: sum[:]})
	}
	sort.Slice(out, func(i, j int) bool { return out[i].version < out[j].version })
	return out, nil
}

// lockKey is the advisory lock that serializes the migration of schema
// across processes.
func lockKey(schema string) int64 {
	h := fnv.New64a()
	h.Write([]byte("cairn/migrate/" + schema))
	return int64(h.Sum64())
}

// migrate creates schema (when not "") and applies the missing migrations,
// all in one transaction that holds a transaction-scoped advisory lock, so
// concurrent Opens wait for each other and the loser finds the work done.
func migrate(ctx context.Context, pool *pgxpool.Pool, schema string) error {
	ms, err := migrations()
	if err != nil {
		return err
	}
	tx, err := pool.Begin(ctx)
	if err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	defer tx.Rollback(context.WithoutCancel(ctx))

	if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock($1)", lockKey(schema)); err != nil {
		return fmt.Errorf("postgres: migration lock: %w", err)
	}
	if schema != "" {
		ident := pgx.Identifier{schema}.Sanitize()
		if _, err := tx.Exec(ctx, "CREATE SCHEMA IF NOT EXISTS "+ident); err != nil {
			return fmt.Errorf("postgres: create schema %s: %w", ident, err)
		}
		if _, err := tx.Exec(ctx, "SET LOCAL search_path TO "+ident); err != nil {
			return fmt.Errorf("postgres: search_path: %w", err)
		}
	}
	var cur *string
	if err := tx.QueryRow(ctx, "SELECT current_schema()").Scan(&cur); err != nil {
		return fmt.Errorf("postgres: current schema: %w", err)
	} else if cur == nil {
		return errors.New("postgres: no schema on the search_path: set Options.Schema")
	}
	if _, err := tx.Exec(ctx, `CREATE TABLE IF NOT EXISTS schema_migrations (
		version    integer PRIMARY KEY,
		name       text NOT NULL,
		checksum   bytea NOT NULL,
		applied_at timestamptz NOT NULL DEFAULT now())`); err != nil {
		return fmt.Errorf("postgres: create schema_migrations: %w", err)
	}
	applied := map[int][]byte{}
	rows, err := tx.Query(ctx, "SELECT version, checksum FROM schema_migrations")
	if err != nil {
		return fmt.Errorf("postgres: read schema_migrations: %w", err)
	}
	for rows.Next() {
		var v int
		var sum []byte
		if err := rows.Scan(&v, &sum); err != nil {
			rows.Close()
			return fmt.Errorf("postgres: read schema_migrations: %w", err)
		}
		applied[v] = sum
	}
	if err := rows.Err(); err != nil {
		return fmt.Errorf("postgres: read schema_migrations: %w", err)
	}

	for _, m := range ms {
		if sum, ok := applied[m.version]; ok {
			if string(sum) != string(m.sum) {
				return fmt.Errorf("postgres: migration %s was edited after it was applied to schema %q", m.name, *cur)
			}
			continue
		}
		if _, err := tx.Exec(ctx, m.sql); err != nil { // no arguments: simple protocol, many statements
			return fmt.Errorf("postgres: migration %s: %w", m.name, err)
		}
		if _, err := tx.Exec(ctx, "INSERT INTO schema_migrations (version, name, checksum) VALUES ($1, $2, $3)",
			m.version, m.name, m.sum); err != nil {
			return fmt.Errorf("postgres: record migration %s: %w", m.name, err)
		}
	}
	if err := tx.Commit(ctx); err != nil {
		return fmt.Errorf("postgres: migrate: %w", err)
	}
	return nil
}
