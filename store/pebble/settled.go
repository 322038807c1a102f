package pebble

import (
	"context"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

var _ store.Settled = (*DB)(nil)

func settledKey(at time.Time, chargeID string) []byte {
	return appendComponent(appendTime([]byte(prefixSettled), at), chargeID)
}

func settledBound(t time.Time) []byte {
	if t.UnixNano() <= 0 {
		return []byte(prefixSettled)
	}
	return appendTime([]byte(prefixSettled), t)
}

// MarkSettled writes the marks in one synced batch.
func (db *DB) MarkSettled(ctx context.Context, chargeIDs []string, at time.Time) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if len(chargeIDs) == 0 {
		return nil
	}
	b := db.db.NewBatch()
	defer b.Close()
	for _, id := range chargeIDs {
		_ = b.Set(settledKey(at, id), nil, nil)
	}
	return db.commit(b)
}

// SettledSince scans the marks in time order from since.
func (db *DB) SettledSince(ctx context.Context, since time.Time, fn func(chargeID string) bool) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	return forEach(ctx, db.db, settledBound(since), prefixEnd([]byte(prefixSettled)), func(k, _ []byte) error {
		rest := k[len(prefixSettled):]
		if len(rest) < 8 {
			return fmt.Errorf("pebble: short settled key")
		}
		id, _, err := readComponent(rest[8:])
		if err != nil {
			return err
		}
		if !fn(id) {
			return errStop
		}
		return nil
	})
}

// DeleteSettledBefore removes the oldest marks, up to limit, in one batch.
func (db *DB) DeleteSettledBefore(ctx context.Context, t time.Time, limit int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixSettled), UpperBound: settledBound(t)})
	if err != nil {
		return 0, fmt.Errorf("pebble: iterate settled: %w", err)
	}
	defer it.Close()
	b := db.db.NewBatch()
	defer b.Close()
	n := 0
	for ok := it.First(); ok && n < limit; ok = it.Next() {
		_ = b.Delete(it.Key(), nil)
		n++
	}
	if err := it.Error(); err != nil || n == 0 {
		return 0, err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return 0, fmt.Errorf("pebble: commit: %w", err)
	}
	return n, nil
}
