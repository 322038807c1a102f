package pebble

import (
	"context"
	"fmt"
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestVersionChangesIndex: a version indexes its history rows, and its
// listings unless it lists more than a chunk and a quarter of the list;
// its changes read the same from the index as from the scans of a store
// whose versions were committed before the index (the index keys of
// versions 1 and 2 deleted), and a version committed after those reads
// from the index although it delists their entries.
func TestVersionChangesIndex(t *testing.T) {
	ctx := context.Background()
	db, err := Open("", Options{InMemory: true})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	entry := func(i int) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", i), Source: "gov_sdn", EntityID: fmt.Sprint(i % 7),
			EntityName: "E", Programs: cairn.ProgramsOf([]string{"SDGT", fmt.Sprint("P", i%3)}), Category: "sanctions", Severity: "critical"}
	}
	span := func(from, to int) []cairn.ListEntry {
		var out []cairn.ListEntry
		for i := from; i < to; i++ {
			out = append(out, entry(i))
		}
		return out
	}
	at := time.Date(2026, 5, 6, 7, 8, 9, 0, time.UTC)
	commit := func(v uint64, added, removed []cairn.ListEntry) {
		t.Helper()
		if err := db.CommitListVersion(ctx, cairn.ListVersion{Version: v, BuiltAt: at.Add(time.Duration(v) * time.Hour)}, added, removed); err != nil {
			t.Fatal(err)
		}
	}
	all := func(v uint64) []cairn.ListChange {
		t.Helper()
		cs, err := db.VersionChanges(ctx, v, 0, 1<<20)
		if err != nil {
			t.Fatal(err)
		}
		return cs
	}
	indexed := func(v uint64) int {
		t.Helper()
		st, err := versionIndexed(db.db, v)
		if err != nil {
			t.Fatal(err)
		}
		return st
	}
	commit(1, span(0, 5000), nil)
	commit(2, span(5000, 5100), span(0, 50))
	if st1, st2 := indexed(1), indexed(2); st1 != versionHistoryIndexed || st2 != versionListingsIndexed {
		t.Fatalf("versions 1 and 2 indexed %d and %d, want %d and %d", st1, st2, versionHistoryIndexed, versionListingsIndexed)
	}
	want1, want2 := all(1), all(2)
	if len(want1) != 5000 || len(want2) != 150 || want2[149].Entry != entry(5099) {
		t.Fatalf("%d changes of version 1, %d of version 2 (last %+v)", len(want1), len(want2), want2[len(want2)-1])
	}
	// As if committed before the index.
	for _, p := range []string{listHistoryByVersionPrefix, listSincePrefix, listIndexedPrefix} {
		if err := db.db.DeleteRange([]byte(p), prefixEnd([]byte(p)), nil); err != nil {
			t.Fatal(err)
		}
	}
	if st := indexed(2); st != versionNotIndexed {
		t.Fatalf("version 2 indexed %d once its keys are deleted", st)
	}
	if got1, got2 := all(1), all(2); !slices.Equal(got1, want1) || !slices.Equal(got2, want2) {
		t.Fatalf("changes read by scanning differ from the index's: %d and %d changes", len(got1), len(got2))
	}
	commit(3, span(6000, 6010), append(span(50, 60), span(5000, 5010)...))
	if st := indexed(3); st != versionListingsIndexed {
		t.Fatalf("version 3 indexed %d", st)
	}
	got := all(3)
	if len(got) != 30 || got[0].Entry != entry(50) || got[19].Entry != entry(5009) || got[29].Entry != entry(6009) {
		t.Fatalf("changes of version 3: %d, %+v", len(got), got)
	}
	for i, c := range got {
		if c.Version != 3 || c.Listed != (i >= 20) {
			t.Fatalf("change %d of version 3: %+v", i, c)
		}
	}
	if got1, got2 := all(1), all(2); len(got1) != 5000 || len(got2) != 150 {
		t.Fatalf("after version 3, %d changes of version 1 and %d of version 2", len(got1), len(got2))
	}
}
