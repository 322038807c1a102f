package pebble

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// A version's changes are indexed by version, so that VersionChanges
// reads a page of them rather than the whole history and segment:
//
//	scr/x/<version BE uint64><history key after scr/h/>   empty: a history row of the version
//	scr/b/<since BE uint64><family><address><source><entityID>
//	                                                     a one-entry chunk: a current entry the version listed
//	scr/i/<version BE uint64>                            one byte: the version's changes are indexed
//	                                                     (versionHistoryIndexed: its history rows;
//	                                                     versionListingsIndexed: its current listings too)
//
// Under scr/x/ a version's rows sort as the history keys do once the
// version is fixed (family, address, listing before delisting, source,
// entity), and under scr/b/ its listings in the segment's order: the
// order VersionChanges returns them in. A version committed before the
// index has no scr/i/ key and is read by scanning, as it was.
//
// A version that lists more than a chunk of entries and more than a
// quarter of the list (the first version of a list, above all) does not
// index its listings: a million keys would double the cost of its commit,
// and its entries are then dense enough in the segment for a scan that
// stops at the page's end.
const (
	listHistoryByVersionPrefix = PrefixCompliance + "x/"
	listSincePrefix            = PrefixCompliance + "b/"
	listIndexedPrefix          = PrefixCompliance + "i/"

	versionNotIndexed      = -1
	versionHistoryIndexed  = 0
	versionListingsIndexed = 1
)

// historyByVersionKey is the index key of the history row at hk, of
// version v.
func historyByVersionKey(v uint64, hk []byte) []byte {
	k := binary.BigEndian.AppendUint64([]byte(listHistoryByVersionPrefix), v)
	return append(k, hk[len(listHistoryPrefix):]...)
}

// historyKeyOf is the history key an index key under prefix (the index's
// prefix and version) names.
func historyKeyOf(prefix, k []byte) []byte {
	return append([]byte(listHistoryPrefix), k[len(prefix):]...)
}

func sinceKey(v uint64, e cairn.ListEntry) []byte {
	k := binary.BigEndian.AppendUint64([]byte(listSincePrefix), v)
	for _, s := range []string{e.Family, e.Address, e.Source, e.EntityID} {
		k = appendComponent(k, s)
	}
	return k
}

func listIndexedKey(v uint64) []byte {
	return binary.BigEndian.AppendUint64([]byte(listIndexedPrefix), v)
}

// versionIndexed returns how much of version v's changes are indexed:
// versionNotIndexed, versionHistoryIndexed or versionListingsIndexed.
func versionIndexed(r pebble.Reader, v uint64) (int, error) {
	val, closer, err := r.Get(listIndexedKey(v))
	if errors.Is(err, pebble.ErrNotFound) {
		return versionNotIndexed, nil
	} else if err != nil {
		return 0, fmt.Errorf("pebble: list version %d index: %w", v, err)
	}
	defer closer.Close()
	if len(val) != 1 {
		return 0, fmt.Errorf("pebble: list version %d index: %d bytes", v, len(val))
	}
	return int(val[0]), nil
}

// encodeEntry is the value of a listing's index key: a chunk of the one
// entry, decoded as the segment's entries are.
func encodeEntry(e cairn.ListEntry, since uint64) []byte {
	enc := chunkEncoder{index: map[string]uint64{}}
	enc.add(segEntry{e, since})
	return enc.encode()
}

// listingsIndexed reports whether version since indexes its listings
// (false for 0, an entry stored before segments).
func (m *segmentMerge) listingsIndexed(since uint64) (bool, error) {
	if since == 0 {
		return false, nil
	}
	if ok, seen := m.indexed[since]; seen {
		return ok, nil
	}
	st, err := versionIndexed(m.r, since)
	m.indexed[since] = st == versionListingsIndexed
	return st == versionListingsIndexed, err
}

// unindex drops the listing of a current entry that leaves from the
// index of the version that listed it.
func (m *segmentMerge) unindex(p segEntry) error {
	ok, err := m.listingsIndexed(p.since)
	if !ok || err != nil {
		return err
	}
	return m.b.Delete(sinceKey(p.since, p.ListEntry), nil)
}

// reindex gives the indexed listing of a current entry its new details.
func (m *segmentMerge) reindex(p segEntry) error {
	ok, err := m.listingsIndexed(p.since)
	if !ok || err != nil {
		return err
	}
	return m.b.Set(sinceKey(p.since, p.ListEntry), encodeEntry(p.ListEntry, p.since), nil)
}

// indexVersion stages, once the merge is done, the index of the entries
// the version listed (unless they are too many: see above) and the key
// that marks the version indexed.
func (m *segmentMerge) indexVersion() error {
	listed, st := m.listedEntries(), versionHistoryIndexed
	if n := listed.Len(); n <= segmentChunk || n*4 <= m.out.n {
		st = versionListingsIndexed
		for i := range n {
			e := listed.At(i)
			if err := m.b.Set(sinceKey(m.v.Version, e), encodeEntry(e, m.v.Version), nil); err != nil {
				return err
			}
		}
	}
	return m.b.Set(listIndexedKey(m.v.Version), []byte{byte(st)}, nil)
}
