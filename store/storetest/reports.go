package storetest

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunReportTests checks a store.Reports implementation; open returns a
// fresh, empty store for each subtest.
func RunReportTests(t *testing.T, open func(t *testing.T) store.Reports) {
	report := func(dev, canon string) *cairn.Report {
		return &cairn.Report{ID: cairn.NewID(), DeveloperID: dev, AgentID: "a-" + dev, Address: canon, Family: "evm",
			Canonical: canon, Category: "scam", Reason: "r", Status: cairn.ReportPending, Established: true}
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
	t.Run("OnlyEstablishedReportersCount", func(t *testing.T) {
		s := open(t)
		const addr = "0x00000000000000000000000000000000000000bb"
		for i, dev := range []string{"f1", "f2", "f3", "f4"} {
			r := report(dev, addr)
			r.Established = false
			if n, err := s.AddReport(ctx, r, 3); err != nil || n != 0 || r.AutoEscalated {
				t.Fatalf("fresh report %d: reporters %d, escalated %v, %v", i, n, r.AutoEscalated, err)
			}
		}
		if esc, _ := s.Escalations(ctx); len(esc) != 0 {
			t.Fatalf("fresh accounts escalated: %+v", esc)
		}
		for i, dev := range []string{"e1", "e2", "e3"} {
			r := report(dev, addr)
			if n, err := s.AddReport(ctx, r, 3); err != nil || n != i+1 || r.AutoEscalated != (i == 2) {
				t.Fatalf("established report %d: reporters %d, escalated %v, %v", i, n, r.AutoEscalated, err)
			}
		}
		if st, _ := s.CountReports(ctx); st.Total != 7 || st.ByStatus[cairn.ReportPending] != 7 {
			t.Fatalf("every report is counted in the stats: %+v", st)
		}
	})
	t.Run("Moderation", func(t *testing.T) {
		s := open(t)
		const addr, other = "0x00000000000000000000000000000000000000cc", "0x00000000000000000000000000000000000000dd"
		at := time.Date(2026, 3, 4, 5, 6, 7, 0, time.UTC)
		mod := func(action string) cairn.Moderation {
			return cairn.Moderation{Action: action, Reason: "checked", RequestID: "req", At: at}
		}
		if _, _, err := s.Moderate(ctx, "evm", addr, "", mod(cairn.ModerationDelist)); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("moderating an address nobody reported: %v", err)
		}
		r1, r2 := report("d1", addr), report("d2", addr)
		for _, r := range []*cairn.Report{r1, r2, report("d3", other)} {
			if _, err := s.AddReport(ctx, r, 3); err != nil {
				t.Fatal(err)
			}
		}
		if got, err := s.Report(ctx, r1.ID); err != nil || got.ID != r1.ID || got.Status != cairn.ReportPending {
			t.Fatalf("report by id %+v %v", got, err)
		}
		if _, err := s.Report(ctx, cairn.NewID()); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("unknown report: %v", err)
		}
		// An administrator confirms: escalated with two reporters.
		changed, escChanged, err := s.Moderate(ctx, "evm", addr, r2.ID, mod(cairn.ModerationConfirm))
		if err != nil || len(changed) != 2 || !escChanged || changed[0].Status != cairn.ReportConfirmed || changed[0].Moderation == nil ||
			changed[0].Moderation.Reason != "checked" {
			t.Fatalf("confirm: %+v %v %v", changed, escChanged, err)
		}
		esc, _ := s.Escalations(ctx)
		if len(esc) != 1 || esc[0].Canonical != addr || esc[0].ReportID != r2.ID {
			t.Fatalf("escalations after confirm %+v", esc)
		}
		if _, escChanged, _ := s.Moderate(ctx, "evm", addr, r1.ID, mod(cairn.ModerationConfirm)); escChanged {
			t.Fatal("confirming an escalated address changed the escalation")
		}
		// Then delists it: every report rejected, the escalation gone.
		changed, escChanged, err = s.Moderate(ctx, "evm", addr, "", mod(cairn.ModerationDelist))
		if err != nil || len(changed) != 2 || !escChanged || changed[1].Status != cairn.ReportRejected {
			t.Fatalf("delist: %+v %v %v", changed, escChanged, err)
		}
		if esc, _ := s.Escalations(ctx); len(esc) != 0 {
			t.Fatalf("escalations after delist %+v", esc)
		}
		if got, _ := s.Report(ctx, r1.ID); got.Status != cairn.ReportRejected || got.Moderation.Action != cairn.ModerationDelist {
			t.Fatalf("report after delist %+v", got)
		}
		if rs, err := s.ListReports(ctx, cairn.ReportRejected, "", 10); err != nil || len(rs) != 2 {
			t.Fatalf("rejected reports %+v %v", rs, err)
		}
		if rs, err := s.ListReports(ctx, cairn.ReportPending, "", 10); err != nil || len(rs) != 1 || rs[0].Canonical != other {
			t.Fatalf("pending reports %+v %v", rs, err)
		}
		all, err := s.ListReports(ctx, "", "", 10)
		if err != nil || len(all) != 3 || all[0].ID < all[1].ID {
			t.Fatalf("all reports, newest first: %+v %v", all, err)
		}
		if rest, _ := s.ListReports(ctx, "", all[0].ID, 10); len(rest) != 2 || rest[0].ID != all[1].ID {
			t.Fatalf("reports before the newest: %+v", rest)
		}
		// The rejected reporters no longer count: three new ones are needed.
		for i, dev := range []string{"n1", "n2", "n3"} {
			r := report(dev, addr)
			if n, err := s.AddReport(ctx, r, 3); err != nil || n != i+1 || r.AutoEscalated != (i == 2) {
				t.Fatalf("report %d after delisting: reporters %d, escalated %v, %v", i, n, r.AutoEscalated, err)
			}
		}
		if _, err := s.AddReport(ctx, report("d1", addr), 3); !cairn.IsCode(err, cairn.ECONFLICT) {
			t.Fatalf("a rejected reporter reporting again: %v", err)
		}
	})
}
