package pebble

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// errPageFull stops the scans of VersionChanges once the page is full.
var errPageFull = errors.New("page full")

// VersionChanges returns up to limit of the changes list version v made,
// skipping the first offset: its history rows (in key order), then the
// current entries it listed (in key order). It reads the whole history
// and the current segment.
func (db *DB) VersionChanges(ctx context.Context, v uint64, offset, limit int) ([]cairn.ListChange, error) {
	snap := db.db.NewSnapshot()
	defer snap.Close()
	at, err := versionBuiltAt(snap, v)
	if errors.Is(err, pebble.ErrNotFound) {
		return nil, cairn.Errorf(cairn.ENOTFOUND, "No list version %d.", v)
	} else if err != nil {
		return nil, err
	}
	out := []cairn.ListChange{}
	take := func(c cairn.ListChange) error {
		if offset > 0 {
			offset--
			return nil
		}
		out = append(out, c)
		if len(out) == limit {
			return errPageFull
		}
		return nil
	}
	err = scanHistory(ctx, snap, func(c cairn.ListChange) error {
		if c.Version != v {
			return nil
		}
		return take(c)
	})
	if err == nil {
		err = db.scanCurrent(ctx, snap, func(e segEntry) error {
			if e.since != v {
				return nil
			}
			return take(cairn.ListChange{Version: v, At: at, Listed: true, Entry: e.ListEntry})
		})
	}
	if err != nil && !errors.Is(err, errPageFull) {
		return nil, err
	}
	return out, nil
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
