package storetest

import (
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunComplianceTests checks a store.Compliance implementation; open returns
// a fresh, empty store for each subtest.
func RunComplianceTests(t *testing.T, open func(t *testing.T) store.Compliance) {
	entry := func(addr, source, entity string) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: addr, Source: source, EntityID: entity, EntityName: "E " + entity,
			Category: "sanctions", Severity: "critical"}
	}
	const a1, a2 = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2"
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	version := func(v uint64) cairn.ListVersion {
		return cairn.ListVersion{Version: v, BuiltAt: at.Add(time.Duration(v) * time.Hour), Root: "0xr", Leaves: 2,
			SanctionsRoot: "0xr", CommunityRoot: fmt.Sprintf("0xc%d", v), CommunityLeaves: int(v),
			Sources: map[string]cairn.SourceVersion{"gov_sdn": {BlobName: "snapshots/x", SHA256: "ab", Entries: 2}}}
	}
	entries := func(t *testing.T, s store.Compliance) []cairn.ListEntry {
		t.Helper()
		var out []cairn.ListEntry
		if err := s.ListEntries(ctx, func(e cairn.ListEntry) error { out = append(out, e); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	t.Run("Empty", func(t *testing.T) {
		s := open(t)
		if _, err := s.LastListVersion(ctx); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("last version of an empty store: %v", err)
		}
		if vs, err := s.ListVersions(ctx, 0, 10); err != nil || len(vs) != 0 {
			t.Fatalf("versions %v %v", vs, err)
		}
	})
	t.Run("VersionsEntriesAndHistory", func(t *testing.T) {
		s := open(t)
		if err := s.CommitListVersion(ctx, version(1), []cairn.ListEntry{entry(a2, "gov_sdn", "2"), entry(a1, "gov_sdn", "1")}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitListVersion(ctx, version(2), []cairn.ListEntry{entry(a1, "community", "r")},
			[]cairn.ListEntry{entry(a2, "gov_sdn", "2")}); err != nil {
			t.Fatal(err)
		}
		got := entries(t, s)
		if len(got) != 2 || got[0] != entry(a1, "community", "r") || got[1] != entry(a1, "gov_sdn", "1") {
			t.Fatalf("entries %+v", got)
		}
		last, err := s.LastListVersion(ctx)
		if err != nil || last.Version != 2 || last.Added != 1 || last.Removed != 1 || !last.BuiltAt.Equal(version(2).BuiltAt) ||
			last.Sources["gov_sdn"].SHA256 != "ab" {
			t.Fatalf("last version %+v %v", last, err)
		}
		// Both roots and both leaf counts are kept.
		if last.Root != "0xr" || last.SanctionsRoot != "0xr" || last.CommunityRoot != "0xc2" || last.Leaves != 2 || last.CommunityLeaves != 2 {
			t.Fatalf("roots of the last version %+v", last)
		}
		vs, err := s.ListVersions(ctx, 0, 10)
		if err != nil || len(vs) != 2 || vs[0].Version != 2 || vs[1].Version != 1 || vs[1].Added != 2 || vs[1].CommunityRoot != "0xc1" {
			t.Fatalf("versions %+v %v", vs, err)
		}
		if vs, _ := s.ListVersions(ctx, 2, 10); len(vs) != 1 || vs[0].Version != 1 {
			t.Fatalf("versions before 2: %+v", vs)
		}
		h, err := s.AddressHistory(ctx, "evm", a2)
		if err != nil || len(h) != 2 || !h[0].Listed || h[0].Version != 1 || h[1].Listed || h[1].Version != 2 ||
			h[1].Entry != entry(a2, "gov_sdn", "2") || !h[1].At.Equal(version(2).BuiltAt) {
			t.Fatalf("history of a delisted address %+v %v", h, err)
		}
		if h, _ := s.AddressHistory(ctx, "evm", a1); len(h) != 2 || h[0].Entry.Source != "gov_sdn" || h[1].Entry.Source != "community" {
			t.Fatalf("history of a1 %+v", h)
		}
		if h, err := s.AddressHistory(ctx, "bitcoin", a1); err != nil || len(h) != 0 {
			t.Fatalf("history under another family %+v %v", h, err)
		}
	})
	t.Run("VersionChanges", func(t *testing.T) {
		s := open(t)
		commits := []struct{ added, removed []cairn.ListEntry }{
			{[]cairn.ListEntry{entry(a1, "gov_sdn", "1"), entry(a2, "gov_sdn", "2")}, nil},
			{nil, nil}, // unchanged: the entries stay as they are
			{[]cairn.ListEntry{entry(a1, "community", "r")}, []cairn.ListEntry{entry(a2, "gov_sdn", "2")}},
			{nil, []cairn.ListEntry{entry(a1, "community", "r")}},
		}
		for i, c := range commits {
			if err := s.CommitListVersion(ctx, version(uint64(i+1)), c.added, c.removed); err != nil {
				t.Fatal(err)
			}
		}
		type change struct {
			listed bool
			e      cairn.ListEntry
		}
		read := func(v uint64, offset, limit int) []change {
			t.Helper()
			cs, err := s.VersionChanges(ctx, v, offset, limit)
			if err != nil {
				t.Fatalf("changes of version %d: %v", v, err)
			}
			out := []change{}
			for _, c := range cs {
				if c.Version != v || !c.At.Equal(version(v).BuiltAt) {
					t.Fatalf("change %+v of version %d: wrong version or time", c, v)
				}
				out = append(out, change{c.Listed, c.Entry})
			}
			return out
		}
		want := map[uint64][]change{
			// a2's listing is a history row since version 2 removed it;
			// a1's is still current.
			1: {{true, entry(a2, "gov_sdn", "2")}, {true, entry(a1, "gov_sdn", "1")}},
			2: {},
			3: {{true, entry(a1, "community", "r")}, {false, entry(a2, "gov_sdn", "2")}},
			4: {{false, entry(a1, "community", "r")}},
		}
		for v, w := range want {
			if got := read(v, 0, 10); fmt.Sprint(got) != fmt.Sprint(w) {
				t.Errorf("changes of version %d:\n got %+v\nwant %+v", v, got, w)
			}
			for i := range w {
				if got := read(v, i, 1); len(got) != 1 || got[0] != w[i] {
					t.Errorf("change %d of version %d alone: %+v, want %+v", i, v, got, w[i])
				}
			}
			if got := read(v, len(w), 10); len(got) != 0 {
				t.Errorf("changes of version %d past the end: %+v", v, got)
			}
		}
		if got := entries(t, s); len(got) != 1 || got[0] != entry(a1, "gov_sdn", "1") {
			t.Fatalf("entries after the versions: %+v", got)
		}
		if _, err := s.VersionChanges(ctx, 5, 0, 10); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("changes of a version not built: %v", err)
		}
	})
	t.Run("VersionChangesPages", func(t *testing.T) { testVersionChangesPages(t, open(t)) })
	t.Run("ErrVersionOutOfOrder", func(t *testing.T) {
		s := open(t)
		for _, v := range []uint64{0, 2} {
			if err := s.CommitListVersion(ctx, version(v), nil, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
				t.Fatalf("version %d first: %v", v, err)
			}
		}
		if err := s.CommitListVersion(ctx, version(1), []cairn.ListEntry{entry(a1, "gov_sdn", "1")}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitListVersion(ctx, version(1), []cairn.ListEntry{entry(a2, "gov_sdn", "2")}, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("version 1 twice: %v", err)
		}
		if got := entries(t, s); len(got) != 1 {
			t.Fatalf("a refused version changed the entries: %+v", got)
		}
	})
	t.Run("ListEntriesStopsOnError", func(t *testing.T) {
		s := open(t)
		if err := s.CommitListVersion(ctx, version(1), []cairn.ListEntry{entry(a1, "gov_sdn", "1"), entry(a2, "gov_sdn", "2")}, nil); err != nil {
			t.Fatal(err)
		}
		stop := errors.New("stop")
		n := 0
		err := s.ListEntries(ctx, func(cairn.ListEntry) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("ListEntries: %v after %d entries", err, n)
		}
	})
	t.Run("LargeListAcrossVersions", func(t *testing.T) {
		// Enough entries for many storage chunks: every entry comes back in
		// order, and each address's history is found wherever it sits.
		s := open(t)
		const n = 20_000
		addr := func(i int) string { return fmt.Sprintf("0x%040x", i*7919) }
		var v1 []cairn.ListEntry
		for i := range n {
			v1 = append(v1, entry(addr(i), "list:ethereum", ""))
			if i%1000 == 0 { // a second listing of the same address
				v1 = append(v1, entry(addr(i), "gov_sdn", fmt.Sprint(i)))
			}
		}
		if err := s.CommitListVersion(ctx, version(1), v1, nil); err != nil {
			t.Fatal(err)
		}
		// Version 2 removes both listings of address 0 and one of 5000, and
		// lists a new address; version 3 lists address 0 again.
		removed := []cairn.ListEntry{entry(addr(0), "gov_sdn", "0"), entry(addr(0), "list:ethereum", ""), entry(addr(5000), "list:ethereum", "")}
		newAddr := "bc1qnewlisting"
		if err := s.CommitListVersion(ctx, version(2), []cairn.ListEntry{{Family: "bitcoin", Address: newAddr, Source: "list:xbt",
			Category: "sanctions", Severity: "critical"}}, removed); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitListVersion(ctx, version(3), []cairn.ListEntry{entry(addr(0), "list:ethereum", "")}, nil); err != nil {
			t.Fatal(err)
		}
		got := entries(t, s)
		if want := len(v1) - 3 + 1 + 1; len(got) != want {
			t.Fatalf("%d entries, want %d", len(got), want)
		}
		for i := 1; i < len(got); i++ {
			a, b := got[i-1], got[i]
			if [4]string{a.Family, a.Address, a.Source, a.EntityID} == [4]string{b.Family, b.Address, b.Source, b.EntityID} ||
				a.Family > b.Family || a.Family == b.Family && a.Address > b.Address {
				t.Fatalf("entries out of order at %d: %+v then %+v", i, a, b)
			}
		}
		if got[0].Family != "bitcoin" || got[0].Address != newAddr {
			t.Fatalf("first entry %+v", got[0])
		}
		for _, i := range []int{1, 4095, 4096, 4097, 9999, 19_999} {
			h, err := s.AddressHistory(ctx, "evm", addr(i))
			if err != nil || len(h) != 1 || !h[0].Listed || h[0].Version != 1 || h[0].Entry != entry(addr(i), "list:ethereum", "") ||
				!h[0].At.Equal(version(1).BuiltAt) {
				t.Fatalf("history of entry %d: %+v %v", i, h, err)
			}
		}
		h, err := s.AddressHistory(ctx, "evm", addr(5000)) // two listings at 1, one delisted at 2
		if err != nil || len(h) != 3 {
			t.Fatalf("history of 5000: %+v %v", h, err)
		}
		listed := 0
		for _, c := range h {
			if c.Listed {
				listed++
				if c.Version != 1 {
					t.Fatalf("history of 5000: %+v", h)
				}
			} else if c.Version != 2 || c.Entry.Source != "list:ethereum" || !c.At.Equal(version(2).BuiltAt) {
				t.Fatalf("history of 5000: %+v", h)
			}
		}
		if listed != 2 {
			t.Fatalf("history of 5000: %+v", h)
		}
		// Address 0: both listings at 1, both delistings at 2, listed again at 3.
		h, err = s.AddressHistory(ctx, "evm", addr(0))
		if err != nil || len(h) != 5 {
			t.Fatalf("history of 0: %+v %v", h, err)
		}
		for i, want := range []struct {
			v      uint64
			listed bool
		}{{1, true}, {1, true}, {2, false}, {2, false}, {3, true}} {
			if h[i].Version != want.v || h[i].Listed != want.listed {
				t.Fatalf("history of 0, change %d: %+v", i, h)
			}
		}
		if h[4].Entry != entry(addr(0), "list:ethereum", "") || !h[4].At.Equal(version(3).BuiltAt) {
			t.Fatalf("relisting %+v", h[4])
		}
		if h, err := s.AddressHistory(ctx, "bitcoin", newAddr); err != nil || len(h) != 1 || h[0].Version != 2 {
			t.Fatalf("history of the new address %+v %v", h, err)
		}
	})
	t.Run("Programs", func(t *testing.T) { runListProgramsTest(t, open(t), version) })
	t.Run("Prepared", func(t *testing.T) {
		s := open(t)
		pr, ok := s.(store.ListVersionPreparer)
		if !ok {
			t.Skip("the store commits list versions in one call only")
		}
		p, err := pr.PrepareListVersion(ctx, 1, version(1).BuiltAt, store.EntrySlice{entry(a2, "gov_sdn", "2"), entry(a1, "gov_sdn", "1")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		// Nothing is visible before the commit.
		if _, err := s.LastListVersion(ctx); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("a prepared version is visible: %v", err)
		}
		if got := entries(t, s); len(got) != 0 {
			t.Fatalf("entries of a prepared version are visible: %+v", got)
		}
		// A header of another version is refused, and releases the version.
		bad := version(1)
		bad.BuiltAt = bad.BuiltAt.Add(time.Second)
		if err := p.Commit(ctx, bad); err == nil {
			t.Fatal("a prepared version committed with another build time")
		}
		if _, err := s.LastListVersion(ctx); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("a refused commit stored a version: %v", err)
		}
		// A discarded version leaves nothing and lets the next one through.
		p, err = pr.PrepareListVersion(ctx, 1, version(1).BuiltAt, store.EntrySlice{entry(a1, "gov_sdn", "1")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		p.Discard()
		p.Discard()
		p, err = pr.PrepareListVersion(ctx, 1, version(1).BuiltAt, store.EntrySlice{entry(a2, "gov_sdn", "2"), entry(a1, "gov_sdn", "1")}, nil)
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Commit(ctx, version(1)); err != nil {
			t.Fatal(err)
		}
		p.Discard() // after Commit: nothing
		if _, err := pr.PrepareListVersion(ctx, 1, version(1).BuiltAt, nil, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("version 1 prepared again: %v", err)
		}
		// Prepared then committed is what CommitListVersion stores.
		p, err = pr.PrepareListVersion(ctx, 2, version(2).BuiltAt, store.EntrySlice{entry(a1, "community", "r")}, store.EntrySlice{entry(a2, "gov_sdn", "2")})
		if err != nil {
			t.Fatal(err)
		}
		if err := p.Commit(ctx, version(2)); err != nil {
			t.Fatal(err)
		}
		got := entries(t, s)
		if len(got) != 2 || got[0] != entry(a1, "community", "r") || got[1] != entry(a1, "gov_sdn", "1") {
			t.Fatalf("entries %+v", got)
		}
		last, err := s.LastListVersion(ctx)
		if err != nil || last.Version != 2 || last.Added != 1 || last.Removed != 1 || last.CommunityRoot != "0xc2" || last.Root != "0xr" {
			t.Fatalf("last version %+v %v", last, err)
		}
		h, err := s.AddressHistory(ctx, "evm", a2)
		if err != nil || len(h) != 2 || h[1].Listed || h[1].Version != 2 || !h[1].At.Equal(version(2).BuiltAt) {
			t.Fatalf("history of a delisted address %+v %v", h, err)
		}
	})
}

// runListProgramsTest: an entry's programs are stored with it, read back by
// ListEntries and AddressHistory, replaced with its other details when it
// is added again (its listing unchanged: no event, not counted as added,
// beside a new entry that is), and kept in the history rows of its
// delisting; an entry without programs reads back without.
func runListProgramsTest(t *testing.T, s store.Compliance, version func(uint64) cairn.ListVersion) {
	const a1, a2 = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2"
	lazarus := func(codes ...string) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: a1, Source: "gov_sdn", EntityID: "27307", EntityName: "Lazarus Group",
			Programs: cairn.ProgramsOf(codes), Category: "sanctions", Severity: "critical"}
	}
	plain := cairn.ListEntry{Family: "evm", Address: a2, Source: "list:ethereum", Category: "sanctions", Severity: "critical"}
	commit := func(v uint64, added, removed []cairn.ListEntry) {
		t.Helper()
		if err := s.CommitListVersion(ctx, version(v), added, removed); err != nil {
			t.Fatal(err)
		}
	}
	current := func() []cairn.ListEntry {
		t.Helper()
		var out []cairn.ListEntry
		if err := s.ListEntries(ctx, func(e cairn.ListEntry) error { out = append(out, e); return nil }); err != nil {
			t.Fatal(err)
		}
		return out
	}
	commit(1, []cairn.ListEntry{lazarus("DPRK3"), plain}, nil)
	if got := current(); len(got) != 2 || got[0] != lazarus("DPRK3") || got[1] != plain || got[1].Programs != "" {
		t.Fatalf("entries %+v", got)
	}
	const a3 = "0x00000000000000000000000000000000000000a3"
	added := plain
	added.Address = a3
	commit(2, []cairn.ListEntry{lazarus("DPRK3", "CYBER2"), added}, nil)
	if got := current(); len(got) != 3 || got[0] != lazarus("DPRK3", "CYBER2") || got[2] != added {
		t.Fatalf("entries after new programs %+v", got)
	}
	if h, err := s.AddressHistory(ctx, "evm", a1); err != nil || len(h) != 1 || h[0].Version != 1 || h[0].Entry != lazarus("DPRK3", "CYBER2") {
		t.Fatalf("history of a listing with new programs %+v %v", h, err)
	}
	if v, err := s.LastListVersion(ctx); err != nil || v.Version != 2 || v.Added != 1 || v.Removed != 0 {
		t.Fatalf("version 2 (one entry new, one with new programs) %+v %v", v, err)
	}
	if cs, err := s.VersionChanges(ctx, 2, 0, 10); err != nil || len(cs) != 1 || !cs[0].Listed || cs[0].Entry != added {
		t.Fatalf("changes of version 2: %+v %v", cs, err)
	}
	commit(3, nil, []cairn.ListEntry{lazarus(), added})
	h, err := s.AddressHistory(ctx, "evm", a1)
	if err != nil || len(h) != 2 || !h[0].Listed || h[1].Listed || h[0].Entry != lazarus("DPRK3", "CYBER2") || h[1].Entry != lazarus("DPRK3", "CYBER2") {
		t.Fatalf("history of a delisted entry with programs %+v %v", h, err)
	}
	if h, err := s.AddressHistory(ctx, "evm", a2); err != nil || len(h) != 1 || h[0].Entry != plain {
		t.Fatalf("history of an entry without programs %+v %v", h, err)
	}
}
