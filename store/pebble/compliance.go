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
//	scr/x/, scr/b/, scr/i/                               a version's changes by version (compliance_byversion.go)
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
	p, err := db.PrepareListVersion(ctx, v.Version, v.BuiltAt, store.EntrySlice(added), store.EntrySlice(removed))
	if err != nil {
		return err
	}
	return p.Commit(ctx, v)
}

var _ store.ListVersionPreparer = (*DB)(nil)

// PrepareListVersion does all of CommitListVersion but the header and the
// commit: the merge of the previous segment with the changes into the
// batch, under the list version lock, which the returned version holds
// until Commit or Discard.
func (db *DB) PrepareListVersion(ctx context.Context, version uint64, builtAt time.Time, added, removed store.Entries) (store.PreparedListVersion, error) {
	if err := ctx.Err(); err != nil {
		return nil, err
	}
	st := db.lock(&db.agts, "scr\x00listversion")
	last, err := db.LastListVersion(ctx)
	switch {
	case cairn.IsCode(err, cairn.ENOTFOUND):
		last.Version = 0
	case err != nil:
		st.Unlock()
		return nil, err
	}
	if version != last.Version+1 {
		st.Unlock()
		return nil, cairn.Errorf(cairn.ECONFLICT, "List version %d follows %d, not %d.", version, last.Version, version-1)
	}
	p := &preparedVersion{db: db, b: db.db.NewBatch(), st: st, version: version, builtAt: builtAt, removed: entriesLen(removed)}
	snap := db.db.NewSnapshot()
	defer snap.Close()
	if entriesLen(added) == 0 && p.removed == 0 {
		// Nothing added or removed (a restart's ingestion of unchanged
		// sources): the current segment stays as it is, rather than
		// rewritten whole under the new version (at 10M entries, 12 s and
		// 2 GB of batch).
		if _, ok, err := currentSegment(snap); err != nil {
			p.Discard()
			return nil, err
		} else if ok {
			// No changes: an index of none.
			if err := p.b.Set(listIndexedKey(version), []byte{versionListingsIndexed}, nil); err != nil {
				p.Discard()
				return nil, err
			}
			return p, nil
		}
	}
	v := cairn.ListVersion{Version: version, BuiltAt: builtAt}
	m := &segmentMerge{b: p.b, r: snap, v: v, added: newEntryCursor(added), removed: newEntryCursor(removed),
		out: segmentWriter{b: p.b, version: version}, at: map[uint64]time.Time{}, indexed: map[uint64]bool{}}
	if err := db.scanCurrent(ctx, snap, m.prev); err != nil {
		p.Discard()
		return nil, err
	}
	if err := m.finish(); err != nil {
		p.Discard()
		return nil, err
	}
	if err := m.indexVersion(); err != nil {
		p.Discard()
		return nil, err
	}
	p.added = m.listed()
	// Older segments and the entries of the format before segments.
	if err := p.b.DeleteRange([]byte(listSegmentPrefix), segmentVersionPrefix(version), nil); err != nil {
		p.Discard()
		return nil, err
	}
	if err := p.b.DeleteRange([]byte(listEntryPrefix), prefixEnd([]byte(listEntryPrefix)), nil); err != nil {
		p.Discard()
		return nil, err
	}
	// The alerts of watched addresses, committed with the version: an
	// addition that only gave a current entry new details raises none.
	if _, err := db.stageAlerts(ctx, p.b, version, m.listedEntries(), removed); err != nil {
		p.Discard()
		return nil, err
	}
	return p, nil
}

// preparedVersion is a list version's batch, waiting for its header.
type preparedVersion struct {
	db             *DB
	b              *pebble.Batch
	st             *stripe
	version        uint64
	builtAt        time.Time
	added, removed int
}

// Commit adds the header to the batch and commits it in one synced write.
func (p *preparedVersion) Commit(ctx context.Context, v cairn.ListVersion) error {
	defer p.Discard()
	if p.b == nil {
		return cairn.Errorf(cairn.ECONFLICT, "List version %d was already committed or discarded.", v.Version)
	}
	if v.Version != p.version || !v.BuiltAt.Equal(p.builtAt) {
		return fmt.Errorf("pebble: list version %d (built %s) committed as %d (built %s)", p.version, p.builtAt, v.Version, v.BuiltAt)
	}
	if err := ctx.Err(); err != nil {
		return err
	}
	v.Added, v.Removed = p.added, p.removed
	if err := setJSON(p.b, listVersionKey(v.Version), v); err != nil {
		return err
	}
	return p.db.commit(p.b)
}

// Discard drops the batch and releases the lock; it does nothing after
// Commit or a first Discard.
func (p *preparedVersion) Discard() {
	if p.b == nil {
		return
	}
	_ = p.b.Close()
	p.b = nil
	p.st.Unlock()
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
	return lastFirst[cairn.ListVersion](ctx, db, []byte(listVersionPrefix), upper, limit, nil, nil)
}

// ListEntries scans the current entries in key order.
func (db *DB) ListEntries(ctx context.Context, fn func(cairn.ListEntry) error) error {
	snap := db.db.NewSnapshot()
	defer snap.Close()
	return db.scanCurrent(ctx, snap, func(e segEntry) error { return fn(e.ListEntry) })
}
