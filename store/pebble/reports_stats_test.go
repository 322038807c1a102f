package pebble

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2"
)

// TestReportStatsAreCounters: the report statistics are counters written
// with the reports, not a decoding of every report per call. Removing the
// report records behind the store's back leaves the counts as they were,
// which a count by scanning could not do; a data dir from before the
// counters gets them counted once.
func TestReportStatsAreCounters(t *testing.T) {
	ctx := context.Background()
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	var ids []string
	for i, cat := range []string{"scam", "scam", "hack"} {
		r := &cairn.Report{ID: cairn.NewID(), DeveloperID: cairn.NewID(), Family: "evm",
			Canonical: []string{"0xa", "0xb", "0xa"}[i], Category: cat, Status: cairn.ReportPending, Established: true}
		if _, err := db.AddReport(ctx, r, 3); err != nil {
			t.Fatal(err)
		}
		ids = append(ids, r.ID)
	}
	if _, _, err := db.Moderate(ctx, "evm", "0xa", ids[0], cairn.Moderation{Action: cairn.ModerationReject, Reason: "test"}); err != nil {
		t.Fatal(err)
	}
	want := func(label string) {
		t.Helper()
		st, err := db.CountReports(ctx)
		if err != nil || st.Total != 3 || st.ByStatus[cairn.ReportRejected] != 2 || st.ByStatus[cairn.ReportPending] != 1 ||
			st.ByCategory["scam"] != 2 || st.ByCategory["hack"] != 1 || len(st.ByStatus) != 2 {
			t.Fatalf("%s: CountReports = %+v, %v; want 3 reports, 2 rejected, 1 pending, 2 scam, 1 hack", label, st, err)
		}
	}
	want("counters")
	for _, id := range ids {
		if err := db.db.Delete(key(reportRec, id), pebble.Sync); err != nil {
			t.Fatal(err)
		}
	}
	want("after the report records are gone")

	// A data dir from before the counters: counted from the reports once.
	legacy, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer legacy.Close()
	r := &cairn.Report{ID: cairn.NewID(), DeveloperID: "d", Family: "evm", Canonical: "0xc", Category: "scam", Status: cairn.ReportPending}
	if _, err := legacy.AddReport(ctx, r, 3); err != nil {
		t.Fatal(err)
	}
	if err := legacy.db.Delete(reportStatsKey, pebble.Sync); err != nil {
		t.Fatal(err)
	}
	if st, err := legacy.CountReports(ctx); err != nil || st.Total != 1 || st.ByCategory["scam"] != 1 {
		t.Fatalf("legacy CountReports = %+v, %v", st, err)
	}
	if ok, err := legacy.has(reportStatsKey); err != nil || !ok {
		t.Fatalf("the counted statistics were not kept: %v, %v", ok, err)
	}
}
