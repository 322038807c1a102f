package pebble

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Sanctions list keys, inside the reserved PrefixCompliance (beside the
// community report keys of reports.go):
//
//	scr/v/<version BE uint64>                            ListVersion (JSON)
//	scr/l/<family><address><source><entityID>            ListEntry (JSON): the current entries
//	scr/h/<family><address><version BE uint64><n BE u32> ListChange (JSON): listing history
const (
	listVersionPrefix = PrefixCompliance + "v/"
	listEntryPrefix   = PrefixCompliance + "l/"
	listHistoryPrefix = PrefixCompliance + "h/"
)

var _ store.Compliance = (*DB)(nil)

func listVersionKey(v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(listVersionPrefix), v)
}

func listEntryKey(e store.ListEntry) []byte {
	return key(listEntryPrefix, e.Family, e.Address, e.Source, e.EntityID)
}

func listHistoryKey(family, address string, v uint64, n uint32) []byte {
	k := binary.BigEndian.AppendUint64(key(listHistoryPrefix, family, address), v)
	return binary.BigEndian.AppendUint32(k, n)
}

// CommitListVersion writes the version header, the entry changes and the
// history in one synced batch.
func (db *DB) CommitListVersion(ctx context.Context, v store.ListVersion, added, removed []store.ListEntry) error {
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
	seq := map[string]uint32{}
	change := func(e store.ListEntry, listed bool) error {
		a := e.Family + "\x00" + e.Address
		n := seq[a]
		seq[a] = n + 1
		return setJSON(b, listHistoryKey(e.Family, e.Address, v.Version, n),
			store.ListChange{Version: v.Version, At: v.BuiltAt, Listed: listed, Entry: e})
	}
	for _, e := range removed {
		if err := b.Delete(listEntryKey(e), nil); err != nil {
			return err
		}
		if err := change(e, false); err != nil {
			return err
		}
	}
	for _, e := range added {
		if err := setJSON(b, listEntryKey(e), e); err != nil {
			return err
		}
		if err := change(e, true); err != nil {
			return err
		}
	}
	return commit(b)
}

// LastListVersion reads the newest version header.
func (db *DB) LastListVersion(ctx context.Context) (store.ListVersion, error) {
	vs, err := db.ListVersions(ctx, 0, 1)
	if err != nil {
		return store.ListVersion{}, err
	}
	if len(vs) == 0 {
		return store.ListVersion{}, cairn.Errorf(cairn.ENOTFOUND, "No list version.")
	}
	return vs[0], nil
}

// ListVersions scans the version headers backwards from before.
func (db *DB) ListVersions(ctx context.Context, before uint64, limit int) ([]store.ListVersion, error) {
	upper := prefixEnd([]byte(listVersionPrefix))
	if before > 0 {
		upper = listVersionKey(before)
	}
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(listVersionPrefix), UpperBound: upper})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate list versions: %w", err)
	}
	defer it.Close()
	out := []store.ListVersion{}
	for ok := it.Last(); ok && len(out) < limit; ok = it.Prev() {
		if err := ctx.Err(); err != nil {
			return nil, err
		}
		val, err := it.ValueAndErr()
		if err != nil {
			return nil, err
		}
		var v store.ListVersion
		if err := json.Unmarshal(val, &v); err != nil {
			return nil, fmt.Errorf("pebble: decode list version: %w", err)
		}
		out = append(out, v)
	}
	return out, it.Error()
}

// ListEntries scans the current entries in key order.
func (db *DB) ListEntries(ctx context.Context, fn func(store.ListEntry) error) error {
	return db.scanJSON(ctx, []byte(listEntryPrefix), func(val []byte) error {
		var e store.ListEntry
		if err := json.Unmarshal(val, &e); err != nil {
			return err
		}
		return fn(e)
	})
}

// AddressHistory scans an address's history, oldest first.
func (db *DB) AddressHistory(ctx context.Context, family, address string) ([]store.ListChange, error) {
	out := []store.ListChange{}
	err := db.scanJSON(ctx, key(listHistoryPrefix, family, address), func(val []byte) error {
		var c store.ListChange
		if err := json.Unmarshal(val, &c); err != nil {
			return err
		}
		out = append(out, c)
		return nil
	})
	return out, err
}
