package postgres

import (
	"context"
	"errors"
	"math/rand/v2"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Screenings = (*DB)(nil)

// Durability follows the embedded store (store/pebble/screenings.go): a
// take inside an open window and the screening count commit without
// waiting for the WAL flush (synchronous_commit off, for that transaction
// alone), so that a crash may only lose updates that cost the service;
// opening a window and giving back wait for the flush. A later flushed
// commit flushes every earlier one.

// screeningSlots is the number of rows the screening count is spread over.
const screeningSlots = 16

// asyncCommit makes the commit of tx not wait for the WAL flush.
func asyncCommit(ctx context.Context, tx pgx.Tx) error {
	_, err := tx.Exec(ctx, "SET LOCAL synchronous_commit TO off")
	return mapErr(err, "synchronous_commit")
}

// TakeFree locks the developer's window row, inserting an empty window
// that starts now when there is none (the insert waits for a concurrent
// one, then does nothing), so that concurrent takes of one developer, on
// any instance, run one after the other. An empty window starting now
// answers exactly as a window opened now would.
func (db *DB) TakeFree(ctx context.Context, dev string, n, limit int, window time.Duration, now time.Time) (cairn.FreeTake, error) {
	if dev == "" || n < 0 || limit < 0 || window <= 0 {
		return cairn.FreeTake{}, cairn.Errorf(cairn.EINVALID, "A free take needs a developer, n >= 0, limit >= 0 and a positive window.")
	}
	if !validText(dev) {
		return cairn.FreeTake{}, cairn.Errorf(cairn.EINVALID, "Invalid developer id.")
	}
	var take cairn.FreeTake
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		if _, err := tx.Exec(ctx, `INSERT INTO free_windows (developer_id, start_ns, used) VALUES ($1, $2, 0)
			ON CONFLICT (developer_id) DO NOTHING`, dev, now.UnixNano()); err != nil {
			return mapErr(err, "open free window")
		}
		var startNs, used int64
		if err := tx.QueryRow(ctx, "SELECT start_ns, used FROM free_windows WHERE developer_id = $1 FOR UPDATE", dev).
			Scan(&startNs, &used); err != nil {
			return mapErr(err, "lock free window")
		}
		start := time.Unix(0, startNs).UTC()
		opened := !now.Before(start.Add(window))
		if opened {
			start, used = time.Unix(0, now.UnixNano()).UTC(), 0
		}
		free := min(n, max(0, limit-int(used)))
		used += int64(free)
		take = cairn.FreeTake{Free: free, Remaining: max(0, limit-int(used)), Start: start, Reset: start.Add(window)}
		// Only a window opened here, by the update below or by the insert
		// above (it starts now), commits flushed. Even a take that changes
		// nothing commits the row lock it took, which would otherwise wait
		// for a flush.
		if !opened && startNs != now.UnixNano() {
			if err := asyncCommit(ctx, tx); err != nil {
				return err
			}
		}
		if !opened && free == 0 {
			return nil // nothing changes
		}
		_, err := tx.Exec(ctx, "UPDATE free_windows SET start_ns = $2, used = $3 WHERE developer_id = $1",
			dev, start.UnixNano(), used)
		return mapErr(err, "write free window")
	})
	return take, err
}

// GiveBackFree returns addresses to the window with its row locked, and
// drops the window when nothing is left used.
func (db *DB) GiveBackFree(ctx context.Context, dev string, start time.Time, n int) error {
	if n < 0 {
		return cairn.Errorf(cairn.EINVALID, "Cannot give back a negative number of addresses.")
	}
	if n == 0 || !validText(dev) {
		return nil
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		var used int64
		err := tx.QueryRow(ctx, "SELECT used FROM free_windows WHERE developer_id = $1 AND start_ns = $2 FOR UPDATE",
			dev, start.UnixNano()).Scan(&used)
		if errors.Is(err, pgx.ErrNoRows) || (err == nil && used == 0) {
			return nil // no such window, or nothing to give back
		} else if err != nil {
			return mapErr(err, "lock free window")
		}
		used = max(0, used-int64(n))
		if used == 0 {
			// No request was served in the window: the next take opens one.
			_, err = tx.Exec(ctx, "DELETE FROM free_windows WHERE developer_id = $1", dev)
		} else {
			_, err = tx.Exec(ctx, "UPDATE free_windows SET used = $2 WHERE developer_id = $1", dev, used)
		}
		return mapErr(err, "give back free addresses")
	})
}

// AddScreenings adds n to one of the count's rows, chosen at random, in a
// transaction that does not wait for the WAL flush.
func (db *DB) AddScreenings(ctx context.Context, n int64) error {
	return db.inTx(ctx, func(tx pgx.Tx) error {
		if err := asyncCommit(ctx, tx); err != nil {
			return err
		}
		_, err := tx.Exec(ctx, `INSERT INTO screening_counts (slot, count) VALUES ($1, $2)
			ON CONFLICT (slot) DO UPDATE SET count = screening_counts.count + excluded.count`,
			rand.IntN(screeningSlots), n)
		return mapErr(err, "count screenings")
	})
}

// ScreeningCount sums the count's rows.
func (db *DB) ScreeningCount(ctx context.Context) (int64, error) {
	var n int64
	err := db.pool.QueryRow(ctx, "SELECT COALESCE(sum(count), 0)::bigint FROM screening_counts").Scan(&n)
	return n, mapErr(err, "read screening count")
}
