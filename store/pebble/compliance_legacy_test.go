package pebble

import (
	"context"
	"encoding/binary"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// TestComplianceBeforeSegments opens list data stored one key per entry and
// one history row per change, as before segments: it reads back as it was,
// and the next version moves the entries into a segment without repeating
// a listing in the history.
func TestComplianceBeforeSegments(t *testing.T) {
	ctx := context.Background()
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	at := time.Date(2025, 6, 1, 0, 0, 0, 0, time.UTC)
	e := func(addr, source string) cairn.ListEntry {
		return cairn.ListEntry{Family: "evm", Address: addr, Source: source, Category: "sanctions", Severity: "critical"}
	}
	const a1, a2, a3 = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2", "0x00000000000000000000000000000000000000a3"
	b := db.db.NewBatch()
	v1 := cairn.ListVersion{Version: 1, BuiltAt: at, Root: "0xr", Leaves: 2, Entries: 2, Added: 2}
	must := func(err error) {
		t.Helper()
		if err != nil {
			t.Fatal(err)
		}
	}
	must(setJSON(b, listVersionKey(1), v1))
	for i, le := range []cairn.ListEntry{e(a1, "gov_sdn"), e(a2, "gov_sdn")} {
		must(setJSON(b, listEntryKey(le), le))
		k := binary.BigEndian.AppendUint32(binary.BigEndian.AppendUint64(key(listHistoryPrefix, le.Family, le.Address), 1), uint32(i))
		must(setJSON(b, k, cairn.ListChange{Version: 1, At: at, Listed: true, Entry: le}))
	}
	must(db.commit(b))

	var got []cairn.ListEntry
	collect := func() {
		got = got[:0]
		must(db.ListEntries(ctx, func(le cairn.ListEntry) error { got = append(got, le); return nil }))
	}
	collect()
	if len(got) != 2 || got[0] != e(a1, "gov_sdn") || got[1] != e(a2, "gov_sdn") {
		t.Fatalf("entries stored before segments: %+v", got)
	}
	if h, err := db.AddressHistory(ctx, "evm", a1); err != nil || len(h) != 1 || !h[0].Listed {
		t.Fatalf("history before segments: %+v %v", h, err)
	}
	v2 := cairn.ListVersion{Version: 2, BuiltAt: at.Add(time.Hour), Root: "0xs"}
	must(db.CommitListVersion(ctx, v2, []cairn.ListEntry{e(a3, "gov_sdn")}, []cairn.ListEntry{e(a1, "gov_sdn")}))
	collect()
	if len(got) != 2 || got[0] != e(a2, "gov_sdn") || got[1] != e(a3, "gov_sdn") {
		t.Fatalf("entries after the first segment: %+v", got)
	}
	if ok, _ := db.has(listEntryKey(e(a2, "gov_sdn"))); ok {
		t.Fatal("the entries stored before segments were not dropped")
	}
	h, err := db.AddressHistory(ctx, "evm", a1)
	if err != nil || len(h) != 2 || !h[0].Listed || h[0].Version != 1 || h[1].Listed || h[1].Version != 2 {
		t.Fatalf("history of a1, listed before segments, delisted after: %+v %v", h, err)
	}
	if h, err := db.AddressHistory(ctx, "evm", a2); err != nil || len(h) != 1 || h[0].Version != 1 {
		t.Fatalf("history of a2 (a row, not repeated from the segment): %+v %v", h, err)
	}
	if h, err := db.AddressHistory(ctx, "evm", a3); err != nil || len(h) != 1 || h[0].Version != 2 || !h[0].At.Equal(v2.BuiltAt) {
		t.Fatalf("history of a3: %+v %v", h, err)
	}
}
