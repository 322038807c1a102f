package storetest

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var auditTests = []test{
	{"AppendAudit/AssignsIDAndTime", func(t *testing.T, s store.Store) {
		agentID := cairn.NewID()
		e := &cairn.AuditEntry{
			AgentID: agentID, Action: cairn.AuditWrite, Resource: "notes/today",
			Detail: map[string]any{"version": "3"}, RequestID: "req-9", IP: "127.0.0.1",
		}
		mustOK(t, s.AppendAudit(ctx, e), "AppendAudit")
		if !cairn.ValidID(e.ID) || e.CreatedAt.IsZero() {
			t.Fatalf("entry id %q time %v, want both assigned", e.ID, e.CreatedAt)
		}
		given := &cairn.AuditEntry{ID: cairn.NewID(), AgentID: agentID, Action: cairn.AuditRead, CreatedAt: now()}
		want := *given
		mustOK(t, s.AppendAudit(ctx, given), "AppendAudit with id and time")
		log, err := s.ListAudit(ctx, agentID, cairn.AuditFilter{}, "", 10)
		mustOK(t, err, "ListAudit")
		if len(log) != 2 {
			t.Fatalf("log has %d entries, want 2", len(log))
		}
		wantAudit(t, log[0], want)
		wantAudit(t, log[1], *e)
	}},
	{"ListAudit/OrderFilterPaging", func(t *testing.T, s store.Store) {
		agentID, otherID := cairn.NewID(), cairn.NewID()
		actions := []string{cairn.AuditWrite, cairn.AuditRead, cairn.AuditRead, cairn.AuditSearch, cairn.AuditRotateKey}
		var all []cairn.AuditEntry // in append order
		for i := 0; i < 40; i++ {
			e := &cairn.AuditEntry{AgentID: agentID, Action: actions[i%len(actions)], Resource: cairn.NewID()}
			mustOK(t, s.AppendAudit(ctx, e), "AppendAudit")
			all = append(all, *e)
			mustOK(t, s.AppendAudit(ctx, &cairn.AuditEntry{AgentID: otherID, Action: e.Action}), "AppendAudit")
		}
		newest := func(action string) []cairn.AuditEntry {
			var out []cairn.AuditEntry
			for i := len(all) - 1; i >= 0; i-- {
				if action == "" || all[i].Action == action {
					out = append(out, all[i])
				}
			}
			return out
		}
		for _, tc := range []struct {
			name   string
			action string
			limit  int
		}{
			{"All", "", 100},
			{"AllPages", "", 7},
			{"Read", cairn.AuditRead, 100},
			{"ReadPages", cairn.AuditRead, 3},
			{"RotateKeyPages", cairn.AuditRotateKey, 1},
			{"NoMatch", cairn.AuditUpload, 5},
		} {
			t.Run(tc.name, func(t *testing.T) {
				want := newest(tc.action)
				var got []cairn.AuditEntry
				before := ""
				for pages := 0; ; pages++ {
					if pages > len(want)+1 {
						t.Fatalf("paging does not end")
					}
					page, err := s.ListAudit(ctx, agentID, cairn.AuditFilter{Action: tc.action}, before, tc.limit)
					mustOK(t, err, "ListAudit")
					if len(page) > tc.limit {
						t.Fatalf("page of %d entries, limit %d", len(page), tc.limit)
					}
					got = append(got, page...)
					if len(page) < tc.limit {
						break
					}
					before = page[len(page)-1].ID
				}
				if len(got) != len(want) {
					t.Fatalf("listed %d entries, want %d", len(got), len(want))
				}
				for i := range want {
					wantAudit(t, got[i], want[i])
				}
			})
		}
		page, err := s.ListAudit(ctx, agentID, cairn.AuditFilter{}, all[0].ID, 10)
		mustOK(t, err, "ListAudit before the oldest")
		if len(page) != 0 {
			t.Fatalf("before the oldest: %d entries, want none", len(page))
		}
		page, err = s.ListAudit(ctx, cairn.NewID(), cairn.AuditFilter{}, "", 10)
		mustOK(t, err, "ListAudit of an unknown agent")
		if len(page) != 0 {
			t.Fatalf("unknown agent: %d entries, want none", len(page))
		}
	}},
}
