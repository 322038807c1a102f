package storetest

import (
	"cmp"
	"fmt"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// changesModel is what a sequence of list versions is expected to have
// changed: the current entries with the version that listed each, and the
// history rows of the entries that left.
type changesModel struct {
	current map[string]sinceEntry
	history []cairn.ListChange
	at      map[uint64]time.Time
}

type sinceEntry struct {
	e     cairn.ListEntry
	since uint64
}

func identity(e cairn.ListEntry) string {
	return strings.Join([]string{e.Family, e.Address, e.Source, e.EntityID}, "\x00")
}

// commit applies a version as CommitListVersion documents it: a removed
// current entry leaves its listing and its delisting (with its current
// details), a removed entry that is not current its delisting alone; an
// added current entry (not removed by the version) takes the new details
// and keeps its listing.
func (m *changesModel) commit(v cairn.ListVersion, added, removed []cairn.ListEntry) {
	m.at[v.Version] = v.BuiltAt
	for _, r := range removed {
		cur, ok := m.current[identity(r)]
		if !ok {
			m.history = append(m.history, cairn.ListChange{Version: v.Version, At: v.BuiltAt, Entry: r})
			continue
		}
		m.history = append(m.history, cairn.ListChange{Version: cur.since, At: m.at[cur.since], Listed: true, Entry: cur.e},
			cairn.ListChange{Version: v.Version, At: v.BuiltAt, Entry: cur.e})
		delete(m.current, identity(r))
	}
	for _, a := range added {
		if cur, ok := m.current[identity(a)]; ok {
			m.current[identity(a)] = sinceEntry{a, cur.since}
			continue
		}
		m.current[identity(a)] = sinceEntry{a, v.Version}
	}
}

// changes is what VersionChanges(v) returns whole: the history rows of v
// by family, address, listing first, source and entity, then the current
// entries v listed by identity.
func (m *changesModel) changes(v uint64) []cairn.ListChange {
	out := []cairn.ListChange{}
	for _, c := range m.history {
		if c.Version == v {
			out = append(out, c)
		}
	}
	slices.SortFunc(out, func(a, b cairn.ListChange) int {
		ea, eb := a.Entry, b.Entry
		return cmp.Or(strings.Compare(ea.Family, eb.Family), strings.Compare(ea.Address, eb.Address),
			-cmpBool(a.Listed, b.Listed), strings.Compare(ea.Source, eb.Source), strings.Compare(ea.EntityID, eb.EntityID))
	})
	var listed []cairn.ListEntry
	for _, c := range m.current {
		if c.since == v {
			listed = append(listed, c.e)
		}
	}
	slices.SortFunc(listed, cairn.ListEntry.Compare)
	for _, e := range listed {
		out = append(out, cairn.ListChange{Version: v, At: m.at[v], Listed: true, Entry: e})
	}
	return out
}

func cmpBool(a, b bool) int {
	switch {
	case a == b:
		return 0
	case a:
		return 1
	}
	return -1
}

// testVersionChangesPages commits versions of every kind VersionChanges
// reads (a first version of more than a segment chunk; additions,
// removals, removals of entries not listed, an entry removed and listed
// again and new details of current entries, in versions of a few entries
// and of many; an unchanged version) over two families and two sources,
// then reads the changes of each version at many offsets and page sizes
// and checks each page against the model's whole list.
func testVersionChangesPages(t *testing.T, s store.Compliance) {
	entry := func(family string, i int, source string) cairn.ListEntry {
		addr := fmt.Sprintf("0x%040x", i*7919%100003)
		if family == "bitcoin" {
			addr = fmt.Sprintf("bc1q%038d", i*7919%100003)
		}
		return cairn.ListEntry{Family: family, Address: addr, Source: source, EntityID: fmt.Sprint(i % 37),
			EntityName: fmt.Sprintf("Entity %d", i%37), Category: "sanctions", Severity: "critical"}
	}
	span := func(family string, from, to int, source string) []cairn.ListEntry {
		var out []cairn.ListEntry
		for i := from; i < to; i++ {
			out = append(out, entry(family, i, source))
		}
		return out
	}
	renamed := func(es []cairn.ListEntry, name string) []cairn.ListEntry {
		out := slices.Clone(es)
		for i := range out {
			out[i].EntityName, out[i].Severity = name, "high"
		}
		return out
	}
	cat := func(ess ...[]cairn.ListEntry) []cairn.ListEntry { return slices.Concat(ess...) }
	first := cat(span("evm", 0, 4000, "gov_sdn"), span("bitcoin", 0, 1000, "gov_sdn"), span("evm", 0, 300, "community"))
	commits := []struct{ added, removed []cairn.ListEntry }{
		{first, nil},
		// 200 new; 300 of version 1 removed; 20 removed and listed again;
		// 50 given new details.
		{cat(span("evm", 5000, 5150, "gov_sdn"), span("bitcoin", 5000, 5050, "community"), span("evm", 100, 120, "gov_sdn"),
			renamed(span("evm", 250, 300, "gov_sdn"), "Renamed")),
			cat(span("evm", 0, 250, "gov_sdn"), span("bitcoin", 0, 50, "gov_sdn"))},
		{nil, nil},
		// 100 of version 2's removed, 30 of them given new details, two
		// entries never listed removed, 150 new.
		{cat(span("evm", 6000, 6150, "community"), renamed(span("evm", 5100, 5130, "gov_sdn"), "Again")),
			cat(span("evm", 5000, 5100, "gov_sdn"), span("evm", 9000, 9002, "gov_sdn"))},
		// Many listed at once: more than a chunk, most of the list.
		{span("evm", 10000, 14200, "gov_sdn"), span("evm", 6000, 6010, "community")},
		// Some of everything removed.
		{span("bitcoin", 7000, 7005, "gov_sdn"),
			cat(span("evm", 10000, 10100, "gov_sdn"), span("evm", 3000, 3050, "gov_sdn"), span("evm", 6100, 6110, "community"))},
	}
	m := &changesModel{current: map[string]sinceEntry{}, at: map[uint64]time.Time{}}
	at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
	for i, c := range commits {
		v := cairn.ListVersion{Version: uint64(i + 1), BuiltAt: at.Add(time.Duration(i) * time.Hour), Root: "0xr"}
		if err := s.CommitListVersion(ctx, v, c.added, c.removed); err != nil {
			t.Fatalf("commit version %d: %v", v.Version, err)
		}
		m.commit(v, c.added, c.removed)
	}
	type change struct {
		Version uint64
		At      int64
		Listed  bool
		Entry   cairn.ListEntry
	}
	flat := func(cs []cairn.ListChange) []change {
		out := []change{}
		for _, c := range cs {
			out = append(out, change{c.Version, c.At.UnixNano(), c.Listed, c.Entry})
		}
		return out
	}
	for v := uint64(1); v <= uint64(len(commits)); v++ {
		want := flat(m.changes(v))
		if v != 3 && len(want) == 0 {
			t.Fatalf("the model expects no change of version %d", v)
		}
		n := len(want)
		for _, offset := range []int{0, 1, 99, n / 3, n / 2, n - 101, n - 1, n, n + 7} {
			for _, limit := range []int{1, 7, 101, n + 1} {
				if offset < 0 || limit <= 0 {
					continue
				}
				cs, err := s.VersionChanges(ctx, v, offset, limit)
				if err != nil {
					t.Fatalf("changes of version %d at %d (%d): %v", v, offset, limit, err)
				}
				w := want[min(offset, n):min(offset+limit, n)]
				if got := flat(cs); !slices.Equal(got, w) {
					t.Fatalf("changes of version %d at %d (%d): %d changes, want %d\n got %v\nwant %v", v, offset, limit,
						len(got), len(w), head(got), head(w))
				}
			}
		}
	}
}

// head is the first few of cs, for a failure's message.
func head[T any](cs []T) []T { return cs[:min(len(cs), 3)] }
