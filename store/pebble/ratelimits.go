package pebble

import (
	"context"
	"encoding/binary"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/ratelimit"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

var _ store.RateLimits = (*DB)(nil)

func rateKey(k string) []byte { return key(prefixRate, k) }

// TakeRate applies the event under the key's stripe lock, held until the
// new arrival time is synced: the next event of the key sees it, also
// after a crash.
func (db *DB) TakeRate(ctx context.Context, k string, limit int, period time.Duration, now time.Time) (cairn.RateTake, error) {
	if err := ctx.Err(); err != nil {
		return cairn.RateTake{}, err
	}
	if k == "" || limit <= 0 || period <= 0 {
		return cairn.RateTake{}, cairn.Errorf(cairn.EINVALID, "A rate take needs a key, a positive limit and a positive period.")
	}
	rk := rateKey(k)
	st := db.lock(&db.rates, string(rk)) // by the stored key, as the sweep locks it
	defer st.Unlock()
	tat, err := db.rateTAT(rk)
	if err != nil {
		return cairn.RateTake{}, err
	}
	take, next := ratelimit.GCRA(tat, now, limit, period)
	if !take.Allowed {
		return take, nil
	}
	b := db.db.NewBatch()
	defer b.Close()
	if err := b.Set(rk, binary.BigEndian.AppendUint64(nil, uint64(next.UnixNano())), nil); err != nil {
		return cairn.RateTake{}, err
	}
	return take, db.commit(b)
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

// DeleteRatesBefore scans the counters whose arrival time is not after t,
// up to n, and removes each under its key's stripe lock after reading it
// again: an event counted since the scan moved its arrival time past t,
// and that counter stays.
func (db *DB) DeleteRatesBefore(ctx context.Context, t time.Time, n int) (int, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	stale, err := db.staleRates(t, n)
	if err != nil {
		return 0, err
	}
	removed := 0
	for _, rk := range stale {
		ok, err := db.deleteRateIfStale(rk, t)
		if err != nil {
			return removed, err
		}
		if ok {
			removed++
		}
	}
	return removed, nil
}

// staleRates returns the keys of up to n counters whose arrival time is not
// after t (or that cannot be read).
func (db *DB) staleRates(t time.Time, n int) ([][]byte, error) {
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(prefixRate), UpperBound: prefixEnd([]byte(prefixRate))})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate rates: %w", err)
	}
	defer it.Close()
	var out [][]byte
	for ok := it.First(); ok && len(out) < n; ok = it.Next() {
		if v := it.Value(); len(v) == 8 && time.Unix(0, int64(binary.BigEndian.Uint64(v))).After(t) {
			continue
		}
		out = append(out, append([]byte(nil), it.Key()...))
	}
	return out, it.Error()
}

// deleteRateIfStale removes the counter rk when, read under its stripe
// lock, its arrival time is still not after t.
func (db *DB) deleteRateIfStale(rk []byte, t time.Time) (bool, error) {
	st := db.lock(&db.rates, string(rk))
	defer st.Unlock()
	if tat, err := db.rateTAT(rk); err == nil && tat.After(t) {
		return false, nil
	}
	if err := db.db.Delete(rk, pebble.NoSync); err != nil {
		return false, fmt.Errorf("pebble: delete rate counter: %w", err)
	}
	return true, nil
}
