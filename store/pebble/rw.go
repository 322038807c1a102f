package pebble

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cockroachdb/pebble/v2"
)

// getJSON decodes the value at k into v and reports whether it exists.
func (db *DB) getJSON(k []byte, v any) (bool, error) {
	val, closer, err := db.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("pebble: get: %w", err)
	}
	defer closer.Close()
	if err := json.Unmarshal(val, v); err != nil {
		return false, fmt.Errorf("pebble: decode %q: %w", k, err)
	}
	return true, nil
}

// getRecord decodes the record at k, or returns notFound() when there is
// none.
func getRecord[T any](db *DB, k []byte, notFound func() error) (*T, error) {
	var v T
	if ok, err := db.getJSON(k, &v); err != nil {
		return nil, err
	} else if !ok {
		return nil, notFound()
	}
	return &v, nil
}

// getBytes returns a copy of the value at k, or nil when it does not exist.
func (db *DB) getBytes(k []byte) ([]byte, error) {
	val, closer, err := db.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, nil
	} else if err != nil {
		return nil, fmt.Errorf("pebble: get: %w", err)
	}
	defer closer.Close()
	return append(make([]byte, 0, len(val)), val...), nil
}

func (db *DB) has(k []byte) (bool, error) {
	_, closer, err := db.db.Get(k)
	if errors.Is(err, pebble.ErrNotFound) {
		return false, nil
	} else if err != nil {
		return false, fmt.Errorf("pebble: get: %w", err)
	}
	closer.Close()
	return true, nil
}

// setJSON stages v encoded at k in b.
func setJSON(b *pebble.Batch, k []byte, v any) error {
	val, err := json.Marshal(v)
	if err != nil {
		return fmt.Errorf("pebble: encode %q: %w", k, err)
	}
	return b.Set(k, val, nil)
}

// commitUnlock commits b durably, calling unlock once b is applied and
// visible but before waiting for the WAL sync, so that writers serialized by
// the lock share one fsync. This does not weaken durability: pebble makes a
// synced batch visible before its sync in any case, the WAL is synced in
// commit order (a later batch is never durable without the earlier ones),
// and the caller returns only after the sync. The caller closes b.
//
// Buffered charges are committed first (charges.go): a synced write never
// becomes durable without the charges accepted before it.
func (db *DB) commitUnlock(b *pebble.Batch, unlock func()) error {
	if err := db.flushCharges(); err != nil {
		unlock()
		return err
	}
	t0 := time.Now()
	err := db.db.ApplyNoSyncWait(b, pebble.Sync)
	unlock()
	if err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	if err := b.SyncWait(); err != nil {
		return fmt.Errorf("pebble: sync: %w", err)
	}
	db.syncs.observe(time.Since(t0))
	return nil
}

// commit commits b durably, after the buffered charges (charges.go). The
// caller closes b.
func (db *DB) commit(b *pebble.Batch) error {
	if err := db.flushCharges(); err != nil {
		return err
	}
	t0 := time.Now()
	if err := b.Commit(pebble.Sync); err != nil {
		return fmt.Errorf("pebble: commit: %w", err)
	}
	db.syncs.observe(time.Since(t0))
	return nil
}

// iterJSON decodes the value at the iterator's position into v.
func iterJSON(it *pebble.Iterator, v any) error {
	val, err := it.ValueAndErr()
	if err != nil {
		return fmt.Errorf("pebble: read %q: %w", it.Key(), err)
	}
	if err := json.Unmarshal(val, v); err != nil {
		return fmt.Errorf("pebble: decode %q: %w", it.Key(), err)
	}
	return nil
}

// pageBounds are the bounds of a newest-first page of the keys under
// prefix: those before the component after, or all when after is "".
func pageBounds(prefix []byte, after string) (lower, upper []byte) {
	if after == "" {
		return prefix, prefixEnd(prefix)
	}
	return prefix, appendComponent(append([]byte(nil), prefix...), after)
}

// lastFirst reads the records of the keys in [lower, upper), last key
// first, into at most limit of them. Each record is
// the key's JSON value or, with byID, what byID returns for the component
// after lower in the key (an index entry), nil skipping it. keep, when not
// nil, drops the records it returns false for.
func lastFirst[T any](ctx context.Context, db *DB, lower, upper []byte, limit int, byID func(id string) (*T, error), keep func(*T) bool) ([]T, error) {
	out := []T{}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate %q: %w", lower, err)
	}
	defer it.Close()
	for ok := it.Last(); ok && len(out) < limit; ok = it.Prev() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		r, err := lastFirstRecord(it, len(lower), byID)
		if err != nil {
			return nil, err
		}
		if r != nil && (keep == nil || keep(r)) {
			out = append(out, *r)
		}
	}
	if err := it.Error(); err != nil {
		return nil, fmt.Errorf("pebble: iterate %q: %w", lower, err)
	}
	return out, nil
}

func lastFirstRecord[T any](it *pebble.Iterator, skip int, byID func(id string) (*T, error)) (*T, error) {
	if byID == nil {
		var v T
		return &v, iterJSON(it, &v)
	}
	id, _, err := readComponent(it.Key()[skip:])
	if err != nil {
		return nil, err
	}
	return byID(id)
}

// errStop, returned by a forEach callback, ends the scan without an error.
var errStop = errors.New("stop")

// forEach calls fn with the key and value of every key in [lower, upper) of
// r, in key order, until fn returns an error (errStop ends it with nil).
func forEach(ctx context.Context, r pebble.Reader, lower, upper []byte, fn func(k, v []byte) error) error {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: lower, UpperBound: upper})
	if err != nil {
		return fmt.Errorf("pebble: iterate %q: %w", lower, err)
	}
	defer it.Close()
	for ok := it.First(); ok; ok = it.Next() {
		if err := ctx.Err(); err != nil {
			return err
		}
		val, err := it.ValueAndErr()
		if err != nil {
			return fmt.Errorf("pebble: read %q: %w", it.Key(), err)
		}
		if err := fn(it.Key(), val); errors.Is(err, errStop) {
			return nil
		} else if err != nil {
			return err
		}
	}
	return it.Error()
}
