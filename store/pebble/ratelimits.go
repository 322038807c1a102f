package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

var _ store.RateLimits = (*DB)(nil)

func rateKey(k string) []byte { return key(prefixRate, k) }

// TakeRate applies the event under the key's stripe lock, held until the
// new arrival time is synced: the next event of the key sees it, also
// after a crash.
func (db *DB) TakeRate(ctx context.Context, k string, limit int, period time.Duration, now time.Time) (store.RateTake, error) {
	if err := ctx.Err(); err != nil {
		return store.RateTake{}, err
	}
	if k == "" || limit <= 0 || period <= 0 {
		return store.RateTake{}, cairn.Errorf(cairn.EINVALID, "A rate take needs a key, a positive limit and a positive period.")
	}
	rk := rateKey(k)
	st := db.lock(&db.rates, k)
	defer st.Unlock()
	tat, err := db.rateTAT(rk)
	if err != nil {
		return store.RateTake{}, err
	}
	take, next := store.GCRA(tat, now, limit, period)
	if !take.Allowed {
		return take, nil
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(rk, binary.BigEndian.AppendUint64(nil, uint64(next.UnixNano())), nil); err != nil {
		return store.RateTake{}, err
	}
	return take, commit(b)
}

// rateTAT reads a counter's arrival time (zero when none).
func (db *DB) rateTAT(rk []byte) (time.Time, error) {
	v, err := db.getBytes(rk)
	if err != nil || v == nil {
		return time.Time{}, err
	}
	if len(v) != 8 {
		return time.Time{}, fmt.Errorf("pebble: corrupt rate counter %q", rk)
	}
	return time.Unix(0, int64(binary.BigEndian.Uint64(v))), nil
}

// DeleteRatesBefore scans the counters and removes those whose arrival time
// is not after t, up to n, in one batch.
func (db *DB) DeleteRatesBefore(ctx context.Context, t time.Time, n int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixRate), UpperBound: prefixEnd([]byte(prefixRate))})
	if err != nil {
		return 0, fmt.Errorf("pebble: iterate rates: %w", err)
	}
	defer it.Close()
	b := db.db.NewBatch()
	defer b.Close()
	removed := 0
	for ok := it.First(); ok && removed < n; ok = it.Next() {
		v := it.Value()
		if len(v) == 8 && time.Unix(0, int64(binary.BigEndian.Uint64(v))).After(t) {
			continue
		}
		_ = b.Delete(it.Key(), nil)
		removed++
	}
	if err := it.Error(); err != nil || removed == 0 {
		return 0, err
	}
	if err := b.Commit(pebble.NoSync); err != nil {
		return 0, fmt.Errorf("pebble: commit: %w", err)
	}
	return removed, nil
}
