package pebble

import (
	"bytes"
	"cmp"
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"slices"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

func sortedEntries(es []cairn.ListEntry) []cairn.ListEntry {
	if slices.IsSortedFunc(es, cairn.ListEntry.Compare) {
		return es
	}
	out := slices.Clone(es)
	slices.SortFunc(out, cairn.ListEntry.Compare)
	return out
}

func entriesLen(es store.Entries) int {
	if es == nil {
		return 0
	}
	return es.Len()
}

// entryCursor reads a version's additions or removals in key order, one
// entry at a time: an EntrySlice sorted first, any other Entries as given,
// refused (at the entry out of order) when not in key order, since the
// merge would store a segment out of order.
type entryCursor struct {
	es   store.Entries
	i    int
	cur  cairn.ListEntry
	ok   bool
	prev cairn.ListEntry
	err  error
}

func newEntryCursor(es store.Entries) *entryCursor {
	switch s := es.(type) {
	case nil:
		es = store.EntrySlice(nil)
	case store.EntrySlice:
		es = store.EntrySlice(sortedEntries(s))
	}
	c := &entryCursor{es: es, i: -1}
	c.next()
	return c
}

// peek returns the current entry, nil when none is left.
func (c *entryCursor) peek() *cairn.ListEntry {
	if !c.ok {
		return nil
	}
	return &c.cur
}

func (c *entryCursor) next() {
	c.prev = c.cur
	c.i++
	if c.ok = c.i < c.es.Len(); !c.ok {
		return
	}
	c.cur = c.es.At(c.i)
	if c.i > 0 && c.err == nil && c.prev.Compare(c.cur) > 0 {
		c.err = fmt.Errorf("pebble: list entries not in key order at %d: %s/%s/%s/%s", c.i, c.cur.Family, c.cur.Address,
			c.cur.Source, c.cur.EntityID)
	}
}

// currentSegment returns the version of the stored segment, false when
// there is none (no version yet, or entries stored before segments).
func currentSegment(r pebble.Reader) (uint64, bool, error) {
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: []byte(listSegmentPrefix),
		UpperBound: prefixEnd([]byte(listSegmentPrefix))})
	if err != nil {
		return 0, false, fmt.Errorf("pebble: iterate list segment: %w", err)
	}
	defer it.Close()
	if !it.First() {
		return 0, false, it.Error()
	}
	k := it.Key()[len(listSegmentPrefix):]
	if len(k) < 8 {
		return 0, false, errBadChunk
	}
	return binary.BigEndian.Uint64(k), true, nil
}

// scanCurrent calls fn with every current entry in key order: the
// segment's, or else the entries stored one key each before segments.
func (db *DB) scanCurrent(ctx context.Context, r pebble.Reader, fn func(segEntry) error) error {
	sv, ok, err := currentSegment(r)
	if err != nil {
		return err
	}
	prefix := []byte(listEntryPrefix)
	if ok {
		prefix = segmentVersionPrefix(sv)
	}
	return forEach(ctx, r, prefix, prefixEnd(prefix), func(_, val []byte) error {
		if ok {
			return decodeChunk(val, fn)
		}
		var e segEntry
		if err := json.Unmarshal(val, &e.ListEntry); err != nil {
			return err
		}
		return fn(e)
	})
}

// segmentWriter cuts entries, given in key order, into chunks staged in b.
type segmentWriter struct {
	b       *pebble.Batch
	version uint64
	enc     chunkEncoder
	first   cairn.ListEntry
	n       int // entries added
	err     error
}

func (w *segmentWriter) add(e segEntry) {
	if w.enc.index == nil {
		w.enc.index = map[string]uint64{}
	}
	if w.enc.count == 0 {
		w.first = e.ListEntry
	}
	w.enc.add(e)
	w.n++
	if w.enc.count == segmentChunk {
		w.flush()
	}
}

func (w *segmentWriter) flush() {
	if w.enc.count == 0 || w.err != nil {
		return
	}
	w.err = w.b.Set(segmentChunkKey(w.version, w.first), w.enc.encode(), nil)
	w.enc.reset()
}

// segmentMerge merges the previous current entries (prev, in key order)
// with a version's sorted additions and removals into the new segment,
// and stages the history rows of what is removed.
type segmentMerge struct {
	b              *pebble.Batch
	r              pebble.Reader
	v              cairn.ListVersion
	added, removed *entryCursor
	out            segmentWriter
	at             map[uint64]time.Time // version -> built at, for history rows
	indexed        map[uint64]bool      // version -> its listings are indexed (compliance_byversion.go)
	refreshed      []int                // positions in added.es of the additions that only gave a current entry new details
}

// listed is the number of additions the merge listed.
func (m *segmentMerge) listed() int { return m.added.es.Len() - len(m.refreshed) }

// listedEntries are the additions the merge listed, in key order: what the
// version's alerts are matched from.
func (m *segmentMerge) listedEntries() store.Entries {
	if len(m.refreshed) == 0 {
		return m.added.es
	}
	at, r := make([]int, 0, m.listed()), m.refreshed
	for i := range m.added.es.Len() {
		if len(r) > 0 && r[0] == i {
			r = r[1:]
			continue
		}
		at = append(at, i)
	}
	return entrySubset{m.added.es, at}
}

// entrySubset is the entries of es at the positions at, in their order.
type entrySubset struct {
	es store.Entries
	at []int
}

// Len is the number of entries.
func (s entrySubset) Len() int { return len(s.at) }

// At returns entry i.
func (s entrySubset) At(i int) cairn.ListEntry { return s.es.At(s.at[i]) }

// before handles the additions and removals that sort before p (all of
// them when p is nil): an addition is a new entry; a removal of an entry
// that is not current is a delisting row alone.
func (m *segmentMerge) before(p *cairn.ListEntry) error {
	for a := m.added.peek(); a != nil && (p == nil || a.Compare(*p) < 0); a = m.added.peek() {
		m.out.add(segEntry{*a, m.v.Version})
		m.added.next()
	}
	for r := m.removed.peek(); r != nil && (p == nil || r.Compare(*p) < 0); r = m.removed.peek() {
		if err := m.row(*r, m.v.Version, m.v.BuiltAt, false); err != nil {
			return err
		}
		m.removed.next()
	}
	return cmp.Or(m.added.err, m.removed.err)
}

func (m *segmentMerge) prev(p segEntry) error {
	if err := m.before(&p.ListEntry); err != nil {
		return err
	}
	if r := m.removed.peek(); r != nil && r.Compare(p.ListEntry) == 0 {
		m.removed.next()
		if err := m.removal(p); err != nil {
			return err
		}
		if a := m.added.peek(); a != nil && a.Compare(p.ListEntry) == 0 {
			m.out.add(segEntry{*a, m.v.Version}) // removed and listed again
			m.added.next()
		}
		return m.out.err
	}
	if a := m.added.peek(); a != nil && a.Compare(p.ListEntry) == 0 {
		p.ListEntry = *a // new details, same listing: not counted as listed
		m.refreshed = append(m.refreshed, m.added.i)
		m.added.next()
		if err := m.reindex(p); err != nil {
			return err
		}
	}
	m.out.add(p)
	return m.out.err
}

func (m *segmentMerge) finish() error {
	if err := m.before(nil); err != nil {
		return err
	}
	if err := cmp.Or(m.added.err, m.removed.err); err != nil {
		return err
	}
	m.out.flush()
	return m.out.err
}

// removal stages the rows of a current entry that leaves: its listing
// (unless a row already holds it) and its delisting; and drops it from the
// index of its version's listings.
func (m *segmentMerge) removal(p segEntry) error {
	if err := m.unindex(p); err != nil {
		return err
	}
	if p.since > 0 {
		at, err := m.builtAt(p.since)
		if err != nil {
			return err
		}
		if err := m.row(p.ListEntry, p.since, at, true); err != nil {
			return err
		}
	}
	return m.row(p.ListEntry, m.v.Version, m.v.BuiltAt, false)
}

func (m *segmentMerge) builtAt(v uint64) (time.Time, error) {
	if at, ok := m.at[v]; ok {
		return at, nil
	}
	at, err := versionBuiltAt(m.r, v)
	m.at[v] = at
	return at, err
}

func versionBuiltAt(r pebble.Reader, v uint64) (time.Time, error) {
	val, closer, err := r.Get(listVersionKey(v))
	if err != nil {
		return time.Time{}, fmt.Errorf("pebble: list version %d: %w", v, err)
	}
	defer closer.Close()
	var h struct {
		BuiltAt time.Time `json:"builtAt"`
	}
	if err := json.Unmarshal(val, &h); err != nil {
		return time.Time{}, fmt.Errorf("pebble: decode list version %d: %w", v, err)
	}
	return h.BuiltAt, nil
}

// row stages one history row and its key in the index by version. Its key
// names the entry and whether it is a listing, so rows never collide; it
// is longer than the rows written before segments (<version><n BE
// uint32>), which it cannot equal.
func (m *segmentMerge) row(e cairn.ListEntry, v uint64, at time.Time, listed bool) error {
	k := binary.BigEndian.AppendUint64(key(listHistoryPrefix, e.Family, e.Address), v)
	if listed {
		k = append(k, 0)
	} else {
		k = append(k, 1)
	}
	k = appendComponent(appendComponent(k, e.Source), e.EntityID)
	if err := m.b.Set(historyByVersionKey(v, k), nil, nil); err != nil {
		return err
	}
	return setJSON(m.b, k, cairn.ListChange{Version: v, At: at, Listed: listed, Entry: e})
}

// AddressHistory returns an address's history rows and the listings of its
// current entries, oldest first.
func (db *DB) AddressHistory(ctx context.Context, family, address string) ([]cairn.ListChange, error) {
	snap := db.db.NewSnapshot()
	defer snap.Close()
	out := []cairn.ListChange{}
	prefix := key(listHistoryPrefix, family, address)
	if err := forEach(ctx, snap, prefix, prefixEnd(prefix), func(_, val []byte) error {
		var c cairn.ListChange
		if err := json.Unmarshal(val, &c); err != nil {
			return fmt.Errorf("pebble: decode history: %w", err)
		}
		out = append(out, c)
		return nil
	}); err != nil {
		return nil, err
	}
	cur, err := currentOf(snap, family, address)
	if err != nil {
		return nil, err
	}
	for _, e := range cur {
		if e.since == 0 {
			continue // stored before segments: its listing is a row
		}
		at, err := versionBuiltAt(snap, e.since)
		if err != nil {
			return nil, err
		}
		out = append(out, cairn.ListChange{Version: e.since, At: at, Listed: true, Entry: e.ListEntry})
	}
	slices.SortStableFunc(out, func(a, b cairn.ListChange) int { return cmp.Compare(a.Version, b.Version) })
	return out, ctx.Err()
}

// currentOf returns the current entries of one address from the segment:
// the chunk before the address's first key may end with them, and the
// chunks that begin with it hold the rest.
func currentOf(r pebble.Reader, family, address string) ([]segEntry, error) {
	sv, ok, err := currentSegment(r)
	if err != nil || !ok {
		return nil, err
	}
	vp := segmentVersionPrefix(sv)
	k := appendComponent(appendComponent(slices.Clone(vp), family), address)
	it, err := r.NewIter(&pebble.IterOptions{LowerBound: vp, UpperBound: prefixEnd(vp)})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate list segment: %w", err)
	}
	defer it.Close()
	var out []segEntry
	collect := func(e segEntry) error {
		if e.Family == family && e.Address == address {
			out = append(out, e)
		}
		return nil
	}
	if it.SeekLT(k) {
		if err := decodeChunk(it.Value(), collect); err != nil {
			return nil, err
		}
	}
	for ok := it.SeekGE(k); ok && bytes.HasPrefix(it.Key(), k); ok = it.Next() {
		if err := decodeChunk(it.Value(), collect); err != nil {
			return nil, err
		}
	}
	return out, it.Error()
}
