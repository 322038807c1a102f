package pebble

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// errPageFull stops the scans of VersionChanges once the page is full.
var errPageFull = errors.New("page full")

// VersionChanges returns up to limit of the changes list version v made,
// skipping the first offset: its history rows (in key order), then the
// current entries it listed (in key order). A version committed with its
// changes indexed (compliance_byversion.go) reads its rows from the index
// and, unless it listed too many to index, its current entries too: a
// page costs the keys it skips and the changes it returns. Otherwise the
// whole history, or the segment up to the page's end, is read.
func (db *DB) VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error) {
	snap := db.db.NewSnapshot()
	defer snap.Close()
	at, err := versionBuiltAt(snap, v)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No list version %d.", v)
	} else if err != nil {
		return nil, err
	}
	indexed, err := versionIndexed(snap, v)
	if err != nil {
		return nil, err
	}
	pg := &changePage{offset: offset, limit: limit, out: []cairn.ListChange{}}
	if indexed == versionNotIndexed {
		err = scanHistory(ctx, snap, func(c cairn.ListChange) error {
			if c.Version != v || pg.skip() {
				return nil
			}
			return pg.add(c)
		})
	} else {
		err = versionHistory(ctx, snap, v, pg)
	}
	if err == nil && indexed == versionListingsIndexed {
		err = versionListings(ctx, snap, v, at, pg)
	} else if err == nil {
		err = db.scanCurrent(ctx, snap, func(e segEntry) error {
			if e.since != v || pg.skip() {
				return nil
			}
			return pg.add(cairn.ListChange{Version: v, At: at, Listed: true, Entry: e.ListEntry})
		})
	}
	if err != nil && !errors.Is(err, errPageFull) {
		return nil, err
	}
	return pg.out, nil
}

// changePage collects a page of changes: offset are skipped, then up to
// limit kept.
type changePage struct {
	offset, limit int
	out           []cairn.ListChange
}

// skip reports whether the next change falls before the page, and counts
// it if so.
func (pg *changePage) skip() bool {
	if pg.offset > 0 {
		pg.offset--
		return true
	}
	return false
}

// add keeps c; errPageFull once the page is full.
func (pg *changePage) add(c cairn.ListChange) error {
	pg.out = append(pg.out, c)
	if len(pg.out) == pg.limit {
		return errPageFull
	}
	return nil
}

// versionHistory reads version v's history rows through their index: the
// skipped ones are index keys alone, and each row is one seek of an
// iterator over the history, forward from the last.
func versionHistory(ctx context.Context, r pebble.Reader, v uint64, pg *changePage) error {
	hp := []byte(listHistoryPrefix)
	rows, err := r.NewIter(&pebble.IterOptions{LowerBound: hp, UpperBound: prefixEnd(hp)})
	if err != nil {
		return fmt.Errorf("pebble: iterate history: %w", err)
	}
	defer rows.Close()
	prefix := binary.BigEndian.AppendUint64([]byte(listHistoryByVersionPrefix), v)
	return forEach(ctx, r, prefix, prefixEnd(prefix), func(k, _ []byte) error {
		if pg.skip() {
			return nil
		}
		hk := historyKeyOf(prefix, k)
		if !rows.SeekGE(hk) || !bytes.Equal(rows.Key(), hk) {
			return cmp.Or(rows.Error(), fmt.Errorf("pebble: history row %q of version %d: %w", hk, v, pebble.ErrNotFound))
		}
		val, err := rows.ValueAndErr()
		if err != nil {
			return fmt.Errorf("pebble: read %q: %w", hk, err)
		}
		var c cairn.ListChange
		if err := json.Unmarshal(val, &c); err != nil {
			return fmt.Errorf("pebble: decode history: %w", err)
		}
		return pg.add(c)
	})
}

// versionListings reads the current entries version v listed from their
// index.
func versionListings(ctx context.Context, r pebble.Reader, v uint64, at time.Time, pg *changePage) error {
	prefix := binary.BigEndian.AppendUint64([]byte(listSincePrefix), v)
	return forEach(ctx, r, prefix, prefixEnd(prefix), func(_, val []byte) error {
		if pg.skip() {
			return nil
		}
		return decodeChunk(val, func(e segEntry) error {
			return pg.add(cairn.ListChange{Version: v, At: at, Listed: true, Entry: e.ListEntry})
		})
	})
}

// scanHistory calls fn with every history row, in key order.
func scanHistory(ctx context.Context, r pebble.Reader, fn func(cairn.ListChange) error) error {
	prefix := []byte(listHistoryPrefix)
	return forEach(ctx, r, prefix, prefixEnd(prefix), func(_, val []byte) error {
		var c cairn.ListChange
		if err := json.Unmarshal(val, &c); err != nil {
			return fmt.Errorf("pebble: decode history: %w", err)
		}
		return fn(c)
	})
}
