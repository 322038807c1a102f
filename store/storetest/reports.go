package storetest

import (
	"context"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunReportTests checks a store.Reports implementation; open returns a
// fresh, empty store for each subtest.
func RunReportTests(t *testing.T, open func(t *testing.T) store.Reports) {
	ctx := context.Background()
	report := func(dev, canon string) *cairn.Report {
		return &cairn.Report{ID: cairn.NewID(), DeveloperID: dev, AgentID: "a-" + dev, Address: canon, Family: "evm",
			Canonical: canon, Category: "scam", Reason: "r", Status: cairn.ReportPending}
	}
	t.Run("EscalatesOnceAtThreshold", func(t *testing.T) {
		s := open(t)
		const addr = "0x00000000000000000000000000000000000000aa"
		var last *cairn.Report
		for i, dev := range []string{"d1", "d2", "d3", "d4"} {
			last = report(dev, addr)
			n, err := s.AddReport(ctx, last, 3)
			if err != nil || n != i+1 {
				t.Fatalf("report %d: reporters %d, %v", i, n, err)
			}
			if last.AutoEscalated != (i == 2) {
				t.Fatalf("report %d: autoEscalated %v", i, last.AutoEscalated)
			}
		}
		if _, err := s.AddReport(ctx, report("d1", addr), 3); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("a second report of one account: %v", err)
		}
		esc, err := s.Escalations(ctx)
		if err != nil || len(esc) != 1 || esc[0].Canonical != addr || esc[0].Reporters != 3 {
			t.Fatalf("escalations %+v %v", esc, err)
		}
		stats, err := s.CountReports(ctx)
		if err != nil || stats.Total != 4 || stats.ByStatus[cairn.ReportPending] != 4 || stats.ByCategory["scam"] != 4 {
			t.Fatalf("stats %+v %v", stats, err)
		}
	})
	t.Run("AddressesAreSeparate", func(t *testing.T) {
		s := open(t)
		for i, canon := range []string{"0x01", "0x02", "0x03"} {
			if n, err := s.AddReport(ctx, report("d1", canon), 3); err != nil || n != 1 {
				t.Fatalf("report %d: %d %v", i, n, err)
			}
		}
		if esc, _ := s.Escalations(ctx); len(esc) != 0 {
			t.Fatalf("escalated with one reporter each: %v", esc)
		}
	})
}
