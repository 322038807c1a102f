package storetest

import (
	"context"
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
	ctx := context.Background()
	entry := func(addr, source, entity string) store.ListEntry {
		return store.ListEntry{Family: "evm", Address: addr, Source: source, EntityID: entity, EntityName: "E " + entity,
			Category: "sanctions", Severity: "critical"}
	}
	const a1, a2 = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2"
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	version := func(v uint64) store.ListVersion {
		return store.ListVersion{Version: v, BuiltAt: at.Add(time.Duration(v) * time.Hour), Root: "0xr", Leaves: 2,
			SanctionsRoot: "0xr", CommunityRoot: fmt.Sprintf("0xc%d", v), CommunityLeaves: int(v),
			Sources: map[string]store.SourceVersion{"gov_sdn": {BlobName: "snapshots/x", SHA256: "ab", Entries: 2}}}
	}
	entries := func(t *testing.T, s store.Compliance) []store.ListEntry {
		t.Helper()
		var out []store.ListEntry
		if err := s.ListEntries(ctx, func(e store.ListEntry) error { out = append(out, e); return nil }); err != nil {
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
		if err := s.CommitListVersion(ctx, version(1), []store.ListEntry{entry(a2, "gov_sdn", "2"), entry(a1, "gov_sdn", "1")}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitListVersion(ctx, version(2), []store.ListEntry{entry(a1, "community", "r")},
			[]store.ListEntry{entry(a2, "gov_sdn", "2")}); err != nil {
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
	t.Run("ErrVersionOutOfOrder", func(t *testing.T) {
		s := open(t)
		for _, v := range []uint64{0, 2} {
			if err := s.CommitListVersion(ctx, version(v), nil, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
				t.Fatalf("version %d first: %v", v, err)
			}
		}
		if err := s.CommitListVersion(ctx, version(1), []store.ListEntry{entry(a1, "gov_sdn", "1")}, nil); err != nil {
			t.Fatal(err)
		}
		if err := s.CommitListVersion(ctx, version(1), []store.ListEntry{entry(a2, "gov_sdn", "2")}, nil); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("version 1 twice: %v", err)
		}
		if got := entries(t, s); len(got) != 1 {
			t.Fatalf("a refused version changed the entries: %+v", got)
		}
	})
	t.Run("ListEntriesStopsOnError", func(t *testing.T) {
		s := open(t)
		if err := s.CommitListVersion(ctx, version(1), []store.ListEntry{entry(a1, "gov_sdn", "1"), entry(a2, "gov_sdn", "2")}, nil); err != nil {
			t.Fatal(err)
		}
		stop := errors.New("stop")
		n := 0
		err := s.ListEntries(ctx, func(store.ListEntry) error { n++; return stop })
		if !errors.Is(err, stop) || n != 1 {
			t.Fatalf("ListEntries: %v after %d entries", err, n)
		}
	})
}
