package pebble

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Sanctions list keys, inside the reserved PrefixCompliance (beside the
// community report keys of reports.go):
//
//	scr/v/<version BE uint64>                            ListVersion (JSON)
//	scr/s/<version BE uint64><first entry's identity>    a chunk of the current entries (compliance_segment.go)
//	scr/h/<family><address><version BE uint64><listed 0|1><source><entityID>
//	                                                     ListChange (JSON): a removed entry's listing and delisting
//	scr/h/<family><address><version BE uint64><n BE u32> ListChange (JSON): every change, as stored before segments
//	scr/l/<family><address><source><entityID>            ListEntry (JSON): the current entries before segments;
//	                                                     read until the first version with a segment drops them
const (
	listVersionPrefix = PrefixCompliance + "v/"
	listEntryPrefix   = PrefixCompliance + "l/"
	listHistoryPrefix = PrefixCompliance + "h/"
)

var _ store.Compliance = (*DB)(nil)

func listVersionKey(v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(listVersionPrefix), v)
}

func listEntryKey(e cairn.ListEntry) []byte {
	return key(listEntryPrefix, e.Family, e.Address, e.Source, e.EntityID)
}

// CommitListVersion writes the version header, the new segment of current
// entries (the previous one merged with the changes, in one pass over its
// chunks) and the history rows of removed entries in one synced batch, and
// drops the previous segment.
func (db *DB) CommitListVersion(ctx context.Context, v cairn.ListVersion, added, removed []cairn.ListEntry) error {
	if err := ctx.Err(); err != nil {
		return err
	}
	st := db.lock(&db.agts, "scr\x00listversion")
	defer st.Unlock()
	last, err := db.LastListVersion(ctx)
	switch {
	case cairn.IsCode(err, cairn.ENOTFOUND):
		last.Version = 0
	case err != nil:
		return err
	}
	if v.Version != last.Version+1 {
		return cairn.Errorf(cairn.ECONFLICT, "List version %d follows %d, not %d.", v.Version, last.Version, v.Version-1)
	}
	v.Added, v.Removed = len(added), len(removed)
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, listVersionKey(v.Version), v); err != nil {
		return err
	}
	snap := db.db.NewSnapshot()
	defer snap.Close()
	m := &segmentMerge{b: b, r: snap, v: v, added: sortedEntries(added), removed: sortedEntries(removed),
		out: segmentWriter{b: b, version: v.Version}, at: map[uint64]time.Time{}}
	if err := db.scanCurrent(ctx, snap, m.prev); err != nil {
		return err
	}
	if err := m.finish(); err != nil {
		return err
	}
	// Older segments and the entries of the format before segments.
	if err := b.DeleteRange([]byte(listSegmentPrefix), segmentVersionPrefix(v.Version), nil); err != nil {
		return err
	}
	if err := b.DeleteRange([]byte(listEntryPrefix), prefixEnd([]byte(listEntryPrefix)), nil); err != nil {
		return err
	}
	return db.commit(b)
}

// LastListVersion reads the newest version header.
func (db *DB) LastListVersion(ctx context.Context) (cairn.ListVersion, error) {
	vs, err := db.ListVersions(ctx, 0, 1)
	if err != nil {
		return cairn.ListVersion{}, err
	}
	if len(vs) == 0 {
		return cairn.ListVersion{}, cairn.Errorf(cairn.ENOTFOUND, "No list version.")
	}
	return vs[0], nil
}

// ListVersions scans the version headers backwards from before.
func (db *DB) ListVersions(ctx context.Context, before uint64, limit int) ([]cairn.ListVersion, error) {
	upper := prefixEnd([]byte(listVersionPrefix))
	if before > 0 {
		upper = listVersionKey(before)
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(listVersionPrefix), UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate list versions: %w", err)
	}
	defer it.Close()
	out := []cairn.ListVersion{}
	for ok := it.Last(); ok && len(out) < limit; ok = it.Prev() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		val, err := it.ValueAndErr()
		if err != nil {
			return nil, err
		}
		var v cairn.ListVersion
		if err := json.Unmarshal(val, &v); err != nil {
			return nil, fmt.Errorf("pebble: decode list version: %w", err)
		}
		out = append(out, v)
	}
	return out, it.Error()
}

// ListEntries scans the current entries in key order.
func (db *DB) ListEntries(ctx context.Context, fn func(cairn.ListEntry) error) error {
	snap := db.db.NewSnapshot()
	defer snap.Close()
	return db.scanCurrent(ctx, snap, func(e segEntry) error { return fn(e.ListEntry) })
}
