package postgres

import (
	"context"

	"github.com/jackc/pgx/v5"
)

// A stmt is one statement of a write, with its arguments and what its
// failure becomes.
type stmt struct {
	sql  string
	args []any
	fail func(error) error
}

// newStmt is a statement whose failure is mapErr's, naming what.
func newStmt(what, sql string, args ...any) stmt {
	return stmt{sql: sql, args: args, fail: func(err error) error { return mapErr(err, what) }}
}

// exec runs s in tx.
func (s stmt) exec(ctx context.Context, tx pgx.Tx) error {
	if _, err := tx.Exec(ctx, s.sql, s.args...); err != nil {
		return s.fail(err)
	}
	return nil
}

// batcher is what a pool and a transaction share to send statements
// together.
type batcher interface {
	SendBatch(ctx context.Context, b *pgx.Batch) pgx.BatchResults
}

// runBatch sends stmts in one round trip. Sent on the pool, they run in
// one implicit transaction, committed (synchronously, as any) after the
// last one and rolled back by the first that fails; sent in a
// transaction, they are part of it. The error is the first failure's.
func runBatch(ctx context.Context, q batcher, stmts []stmt) error {
	b := &pgx.Batch{}
	for _, s := range stmts {
		b.Queue(s.sql, s.args...)
	}
	br := q.SendBatch(ctx, b)
	for _, s := range stmts {
		if _, err := br.Exec(); err != nil {
			_ = br.Close()
			return s.fail(err)
		}
	}
	return mapErr(br.Close(), "commit")
}
