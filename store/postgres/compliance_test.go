package postgres

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/storetest"
)

// openPair opens two stores on one schema: two instances sharing one
// database.
func openPair(t *testing.T) (*DB, *DB) {
	t.Helper()
	a := openTest(t, Options{})
	var schema string
	if err := a.pool.QueryRow(context.Background(), "SELECT current_schema()").Scan(&schema); err != nil {
		t.Fatal(err)
	}
	return a, openTest(t, Options{Schema: schema})
}

func TestScreeningPersistence(t *testing.T) {
	url := testURL(t)
	schema := newSchema(t, url)
	open := func(t *testing.T) store.Screenings {
		db, err := Open(context.Background(), url, Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		return db
	}
	storetest.RunScreeningPersistenceTest(t, open, func(t *testing.T, s store.Screenings) store.Screenings {
		s.(*DB).Close()
		return open(t)
	})
}

func listEntry(i int, source string) cairn.ListEntry {
	return cairn.ListEntry{Family: "evm", Address: fmt.Sprintf("0x%040x", i), Source: source, Category: "sanctions", Severity: "critical"}
}

func listVersion(v uint64) cairn.ListVersion {
	return cairn.ListVersion{Version: v, BuiltAt: time.Date(2026, 5, 1, 0, 0, 0, int(v), time.UTC), Root: fmt.Sprint("0xr", v)}
}

func currentEntries(t *testing.T, db *DB) []cairn.ListEntry {
	t.Helper()
	var out []cairn.ListEntry
	if err := db.ListEntries(context.Background(), func(e cairn.ListEntry) error { out = append(out, e); return nil }); err != nil {
		t.Fatal(err)
	}
	return out
}

// TestListVersionConcurrentCommits commits one version from many
// goroutines on two instances: exactly one commit wins, and the entries
// are the winner's alone.
func TestListVersionConcurrentCommits(t *testing.T) {
	ctx := context.Background()
	a, b := openPair(t)
	for _, v := range []uint64{1, 2, 3} {
		const n = 8
		errs := make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			wg.Go(func() {
				db := a
				if i%2 == 1 {
					db = b
				}
				added := []cairn.ListEntry{listEntry(int(v)*100+i, "src"), listEntry(int(v)*100+i, "other")}
				errs[i] = db.CommitListVersion(ctx, listVersion(v), added, nil)
			})
		}
		wg.Wait()
		winner := -1
		for i, err := range errs {
			switch {
			case err == nil && winner >= 0:
				t.Fatalf("version %d committed twice (%d and %d)", v, winner, i)
			case err == nil:
				winner = i
			case !cairn.IsCode(err, cairn.ECONFLICT):
				t.Fatalf("version %d, commit %d: %v", v, i, err)
			}
		}
		if winner < 0 {
			t.Fatalf("no commit of version %d won", v)
		}
		got := currentEntries(t, b)
		if len(got) != 2*int(v) {
			t.Fatalf("after version %d: %d entries, want %d", v, len(got), 2*v)
		}
		if want := listEntry(int(v)*100+winner, "src").Address; got[len(got)-1].Address != want {
			t.Fatalf("after version %d: last entry %+v, want the winner's %s", v, got[len(got)-1], want)
		}
	}
	if last, err := a.LastListVersion(ctx); err != nil || last.Version != 3 || last.Added != 2 || last.Root != "0xr3" {
		t.Fatalf("last version %+v %v", last, err)
	}
}

// TestListEntriesSnapshot commits a version that delists everything while
// a scan is under way: the scan still sees the version it began on, in
// full, across its pages.
func TestListEntriesSnapshot(t *testing.T) {
	ctx := context.Background()
	a, b := openPair(t)
	const n = 3*listScanPage + 17
	var v1 []cairn.ListEntry
	for i := range n {
		v1 = append(v1, listEntry(i, "src"))
	}
	if err := a.CommitListVersion(ctx, listVersion(1), v1, nil); err != nil {
		t.Fatal(err)
	}
	seen := 0
	err := a.ListEntries(ctx, func(e cairn.ListEntry) error {
		if seen == 0 {
			if err := b.CommitListVersion(ctx, listVersion(2), nil, v1); err != nil {
				return err
			}
		}
		if e != v1[seen] {
			return fmt.Errorf("entry %d = %+v, want %+v", seen, e, v1[seen])
		}
		seen++
		return nil
	})
	if err != nil || seen != n {
		t.Fatalf("scan: %d entries, %v; want %d", seen, err, n)
	}
	if got := currentEntries(t, a); len(got) != 0 {
		t.Fatalf("%d entries after delisting all", len(got))
	}
	h, err := a.AddressHistory(ctx, "evm", v1[n-1].Address)
	if err != nil || len(h) != 2 || !h[0].Listed || h[1].Listed || h[1].Version != 2 || !h[1].At.Equal(listVersion(2).BuiltAt) {
		t.Fatalf("history %+v %v", h, err)
	}
}

// TestListEntryNewDetails lists an entry again with new details: the
// entry changes, its listing stays that of its first version, a
// duplicate in one commit counts once (the last one given), and the
// version counts no added entry (none is new).
func TestListEntryNewDetails(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	e := listEntry(1, "src")
	if err := db.CommitListVersion(ctx, listVersion(1), []cairn.ListEntry{e, listEntry(2, "src")}, nil); err != nil {
		t.Fatal(err)
	}
	renamed, again := e, e
	renamed.EntityName, again.EntityName = "first", "second"
	if err := db.CommitListVersion(ctx, listVersion(2), []cairn.ListEntry{renamed, again}, nil); err != nil {
		t.Fatal(err)
	}
	got := currentEntries(t, db)
	if len(got) != 2 || got[0] != again {
		t.Fatalf("entries %+v", got)
	}
	h, err := db.AddressHistory(ctx, "evm", e.Address)
	if err != nil || len(h) != 1 || h[0].Version != 1 || h[0].Entry != again {
		t.Fatalf("history %+v %v", h, err)
	}
	if last, _ := db.LastListVersion(ctx); last.Version != 2 || last.Added != 0 {
		t.Fatalf("version 2 counts %d added, want none: its one entry was already listed", last.Added)
	}
}

// TestReportsConcurrent reports one address from many goroutines on two
// instances: one report per developer, and one escalation.
func TestReportsConcurrent(t *testing.T) {
	ctx := context.Background()
	a, b := openPair(t)
	const addr = "0x00000000000000000000000000000000000000ee"
	report := func(dev string) *cairn.Report {
		return &cairn.Report{ID: cairn.NewID(), DeveloperID: dev, Family: "evm", Canonical: addr, Category: "scam",
			Status: cairn.ReportPending, Established: true}
	}
	run := func(n int, dev func(i int) string) ([]*cairn.Report, []error) {
		rs, errs := make([]*cairn.Report, n), make([]error, n)
		var wg sync.WaitGroup
		for i := range n {
			rs[i] = report(dev(i))
			wg.Go(func() {
				db := a
				if i%2 == 1 {
					db = b
				}
				_, errs[i] = db.AddReport(ctx, rs[i], 3)
			})
		}
		wg.Wait()
		return rs, errs
	}
	_, errs := run(8, func(int) string { return "same" })
	ok := 0
	for _, err := range errs {
		if err == nil {
			ok++
		} else if !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatal(err)
		}
	}
	if ok != 1 {
		t.Fatalf("%d reports of one developer stored, want 1", ok)
	}
	rs, errs := run(8, func(i int) string { return fmt.Sprint("dev", i) })
	escalated := 0
	for i, err := range errs {
		if err != nil {
			t.Fatal(err)
		}
		if rs[i].AutoEscalated {
			escalated++
		}
	}
	esc, err := b.Escalations(ctx)
	if err != nil || escalated != 1 || len(esc) != 1 || esc[0].Reporters != 3 {
		t.Fatalf("%d reports escalated, escalations %+v %v; want one, at 3 reporters", escalated, esc, err)
	}
	if st, err := a.CountReports(ctx); err != nil || st.Total != 9 || st.ByStatus[cairn.ReportPending] != 9 {
		t.Fatalf("stats %+v %v", st, err)
	}
}

// TestUnstorableText: strings PostgreSQL text cannot hold (NUL bytes,
// invalid UTF-8) find nothing when looked up and are EINVALID when
// written, never an internal error.
func TestUnstorableText(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	for _, s := range []string{"a\x00b", "\xff\xfe"} {
		if _, err := db.GetMedia(ctx, "agent", s); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("GetMedia(%q): %v", s, err)
		}
		if _, err := db.DeleteMedia(ctx, s, "id", nil); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("DeleteMedia(%q): %v", s, err)
		}
		if ms, err := db.ListMedia(ctx, "agent", cairn.MediaFilter{Category: s}, "", 10); err != nil || len(ms) != 0 {
			t.Fatalf("ListMedia(%q): %v %v", s, ms, err)
		}
		if _, err := db.Report(ctx, s); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("Report(%q): %v", s, err)
		}
		if _, _, err := db.Moderate(ctx, "evm", s, "", cairn.Moderation{Action: cairn.ModerationDelist}); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("Moderate(%q): %v", s, err)
		}
		if h, err := db.AddressHistory(ctx, "evm", s); err != nil || len(h) != 0 {
			t.Fatalf("AddressHistory(%q): %v %v", s, h, err)
		}
		m := &cairn.Media{ID: cairn.NewID(), AgentID: "agent", Category: s}
		if err := db.CreateMedia(ctx, m, nil); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("CreateMedia with category %q: %v", s, err)
		}
		if err := db.CommitListVersion(ctx, listVersion(1), []cairn.ListEntry{{Family: "evm", Address: s}}, nil); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("CommitListVersion of address %q: %v", s, err)
		}
	}
	if _, err := db.LastListVersion(ctx); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("a refused version was kept: %v", err)
	}
}

// TestListEntriesWithoutPrograms: a list entry and a history row written
// without the programs column (as before migration 0014, or by an
// instance still running the release before it) read back without
// programs, beside an entry stored with them.
func TestListEntriesWithoutPrograms(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	const a1, a2 = "0x00000000000000000000000000000000000000a1", "0x00000000000000000000000000000000000000a2"
	with := cairn.ListEntry{Family: "evm", Address: a1, Source: "gov_sdn", EntityID: "27307", EntityName: "Lazarus Group",
		Programs: cairn.ProgramsOf([]string{"DPRK3"}), Category: "sanctions", Severity: "critical"}
	if err := db.CommitListVersion(ctx, cairn.ListVersion{Version: 1, BuiltAt: time.Unix(1, 0).UTC()}, []cairn.ListEntry{with}, nil); err != nil {
		t.Fatal(err)
	}
	for _, q := range []string{
		`INSERT INTO list_entries (family, address, source, entity_id, entity_name, category, severity, since)
			VALUES ('evm', '` + a2 + `', 'gov_sdn', '1', 'Old', 'sanctions', 'critical', 1)`,
		`INSERT INTO list_history (family, address, version, listed, source, entity_id, entity_name, category, severity)
			VALUES ('evm', '` + a2 + `', 1, false, 'gov_sdn', '0', 'Older', 'sanctions', 'critical')`,
	} {
		if _, err := db.pool.Exec(ctx, q); err != nil {
			t.Fatal(err)
		}
	}
	var got []cairn.ListEntry
	if err := db.ListEntries(ctx, func(e cairn.ListEntry) error { got = append(got, e); return nil }); err != nil {
		t.Fatal(err)
	}
	if len(got) != 2 || got[0] != with || got[1].EntityName != "Old" || got[1].Programs != "" {
		t.Fatalf("entries %+v", got)
	}
	h, err := db.AddressHistory(ctx, "evm", a2)
	if err != nil || len(h) != 2 || h[0].Entry.Programs != "" || h[1].Entry.Programs != "" {
		t.Fatalf("history %+v %v", h, err)
	}
}
