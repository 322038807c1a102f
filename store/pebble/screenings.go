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

var _ store.Screenings = (*DB)(nil)

// Durability of the free tier. A take that opens a window and every give
// back are synced; a take inside an open window and the screening counter
// are committed without waiting for the WAL sync (pebble.NoSync). The rule
// is that an update lost in a crash may only ever cost the service, never
// the user:
//
//   - a lost take inside an open window leaves the window's start, which
//     was synced when it opened, and a smaller used count: the developer
//     gets more free addresses than due, never fewer;
//   - a lost window opening would let the next take open the window later,
//     shifting every later window boundary, so that a developer could find
//     a window still full when the lost one would have reset: it is synced;
//   - a lost give back would leave addresses used that the developer did
//     not get: it is synced (and rare: only failed requests give back);
//   - a lost count only makes the statistic of GET /v1/compliance/stats
//     lower.
//
// A synced write also makes every earlier write durable (the WAL is synced
// in order), so a give back never becomes durable without its take. Synced
// writes keep the developer's lock until the sync is done, so that no take
// answers from a window whose opening or give back could still be lost.
//
// Cost (BenchmarkTakeFree on disk, BENCHMARKS.md): a take inside a window
// 1.5-2.7 µs, a synced take 0.3-1 ms. Syncing every take would add an fsync
// to every screening request, which is otherwise free of store writes when
// it stays within the free tier; this way it costs one fsync per developer
// per hour.

// freeWindow is the stored window of one developer.
type freeWindow struct {
	start time.Time
	used  int
}

func (w freeWindow) encode() []byte {
	v := binary.BigEndian.AppendUint64(make([]byte, 0, 16), uint64(w.start.UnixNano()))
	return binary.BigEndian.AppendUint64(v, uint64(w.used))
}

// freeWindow reads the developer's window; ok is false when there is none.
func (db *DB) freeWindow(k []byte) (w freeWindow, ok bool, err error) {
	v, err := db.getBytes(k)
	if err != nil || v == nil {
		return w, false, err
	}
	if len(v) != 16 {
		return w, false, fmt.Errorf("pebble: corrupt free window %q", k)
	}
	w.start = time.Unix(0, int64(binary.BigEndian.Uint64(v))).UTC()
	w.used = int(binary.BigEndian.Uint64(v[8:]))
	return w, true, nil
}

// TakeFree takes free addresses under the developer's stripe lock, which is
// held until the update is applied: the next take of the developer sees it.
func (db *DB) TakeFree(ctx context.Context, dev string, n, limit int, window time.Duration, now time.Time) (cairn.FreeTake, error) {
	if err := ctx.Err(); err != nil {
		return cairn.FreeTake{}, err
	}
	if dev == "" || n < 0 || limit < 0 || window <= 0 {
		return cairn.FreeTake{}, cairn.Errorf(cairn.EINVALID, "A free take needs a developer, n >= 0, limit >= 0 and a positive window.")
	}
	k := freeTierKey(dev)
	st := db.lock(&db.frees, dev)
	w, ok, err := db.freeWindow(k)
	if err != nil {
		st.Unlock()
		return cairn.FreeTake{}, err
	}
	opened := !ok || !now.Before(w.start.Add(window))
	if opened {
		w = freeWindow{start: time.Unix(0, now.UnixNano()).UTC()}
	}
	free := min(n, max(0, limit-w.used))
	w.used += free
	take := cairn.FreeTake{Free: free, Remaining: max(0, limit-w.used), Start: w.start, Reset: w.start.Add(window)}
	if !opened && free == 0 {
		st.Unlock() // nothing changes
		return take, nil
	}
	b := db.db.NewBatch()
	defer b.Close()
	_ = b.Set(k, w.encode(), nil)
	if opened {
		if err = db.flushCharges(); err == nil {
			err = b.Commit(pebble.Sync)
		}
	} else {
		err = b.Commit(pebble.NoSync)
	}
	st.Unlock()
	if err != nil {
		return cairn.FreeTake{}, fmt.Errorf("pebble: commit free window: %w", err)
	}
	return take, nil
}

// GiveBackFree gives addresses back in one synced write.
func (db *DB) GiveBackFree(ctx context.Context, dev string, start time.Time, n int) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	if n < 0 {
		return cairn.Errorf(cairn.EINVALID, "Cannot give back a negative number of addresses.")
	}
	if n == 0 {
		return nil
	}
	k := freeTierKey(dev)
	st := db.lock(&db.frees, dev)
	w, ok, err := db.freeWindow(k)
	if err != nil || !ok || w.start.UnixNano() != start.UnixNano() || w.used == 0 {
		st.Unlock()
		return err
	}
	w.used = max(0, w.used-n)
	b := db.db.NewBatch()
	defer b.Close()
	if w.used == 0 {
		// No request was served in the window: the next take opens one.
		_ = b.Delete(k, nil)
	} else {
		_ = b.Set(k, w.encode(), nil)
	}
	defer st.Unlock()
	return db.commit(b)
}

// AddScreenings adds to the counter without waiting for the WAL sync (see
// the durability note above): a crash may lose the latest counts.
func (db *DB) AddScreenings(ctx context.Context, n int64) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	db.screenMu.Lock()
	defer db.screenMu.Unlock()
	if err := db.loadScreenings(); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	_ = b.Set(keyScreenings, binary.BigEndian.AppendUint64(nil, uint64(db.screenCount+n)), nil)
	if err := b.Commit(pebble.NoSync); err != nil {
		return fmt.Errorf("pebble: commit screening count: %w", err)
	}
	db.screenCount += n
	return nil
}

// ScreeningCount returns the counter, read from the database once and then
// kept beside it.
func (db *DB) ScreeningCount(ctx context.Context) (int64, error) {
	if err := ctx.Err(); err != nil {
		return 0, err
	}
	db.screenMu.Lock()
	defer db.screenMu.Unlock()
	if err := db.loadScreenings(); err != nil {
		return 0, err
	}
	return db.screenCount, nil
}

// loadScreenings reads the counter once; the caller holds screenMu.
func (db *DB) loadScreenings() error {
	if db.screenLoaded {
		return nil
	}
	v, err := db.getBytes(keyScreenings)
	if err != nil {
		return err
	}
	switch len(v) {
	case 0:
	case 8:
		db.screenCount = int64(binary.BigEndian.Uint64(v))
	default:
		return fmt.Errorf("pebble: corrupt screening count")
	}
	db.screenLoaded = true
	return nil
}
