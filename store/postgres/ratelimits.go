package postgres

import (
	"context"
	"errors"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/ratelimit"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.RateLimits = (*DB)(nil)

// TakeRate locks the key's row (a transaction-scoped advisory lock covers a
// key with no row yet), applies the event and writes the new arrival time:
// replicas sharing the database count into the same limit.
func (db *DB) TakeRate(ctx context.Context, key string, limit int, period time.Duration, now time.Time) (cairn.RateTake, error) {
	if key == "" || limit <= 0 || period <= 0 {
		return cairn.RateTake{}, cairn.Errorf(cairn.EINVALID, "A rate take needs a key, a positive limit and a positive period.")
	}
	var take cairn.RateTake
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, "SELECT pg_advisory_xact_lock(hashtextextended('cairn/rate/' || encode($1, 'hex'), 0))", []byte(key)); err != nil {
			return mapErr(err, "lock rate counter")
		}
		var tat time.Time
		err := tx.QueryRow(ctx, "SELECT tat FROM rate_limits WHERE key = $1", []byte(key)).Scan(&tat)
		if err != nil && !errors.Is(err, pgx.ErrNoRows) {
			return mapErr(err, "read rate counter")
		}
		var next time.Time
		take, next = ratelimit.GCRA(tat, now, limit, period)
		if !take.Allowed {
			return nil
		}
		_, err = tx.Exec(ctx, `INSERT INTO rate_limits (key, tat) VALUES ($1, $2)
			ON CONFLICT (key) DO UPDATE SET tat = excluded.tat`, []byte(key), next)
		return mapErr(err, "write rate counter")
	})
	return take, err
}

// DeleteRatesBefore removes up to n counters whose arrival time is not
// after t. The condition is repeated on the deleted rows: a row a
// concurrent TakeRate updated after the subquery read it is checked again
// in its new version, and kept when its arrival time moved past t.
func (db *DB) DeleteRatesBefore(ctx context.Context, t time.Time, n int) (int, error) {
	tag, err := db.pool.Exec(ctx, `DELETE FROM rate_limits WHERE tat <= $1 AND key IN
		(SELECT key FROM rate_limits WHERE tat <= $1 ORDER BY tat LIMIT $2)`, t, n)
	if err != nil {
		return 0, mapErr(err, "delete rate counters")
	}
	return int(tag.RowsAffected()), nil
}
