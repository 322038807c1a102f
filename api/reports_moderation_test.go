package api_test

import (
	"net/url"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestE2EFreshAccountsDoNotEscalate: one person with three free
// registrations cannot list an address; their reports are stored and
// counted, and count once the accounts are established.
func TestE2EFreshAccountsDoNotEscalate(t *testing.T) {
	t.Run("DefaultAge", func(t *testing.T) {
		ts := screenServer(t)
		const suspect = "0x00000000000000000000000000000000000f4e51"
		v := ts.ListVersion(t)
		for i := range 3 {
			a := ts.Register(t, "")
			if i == 2 { // a fresh account that has used the service is still fresh
				ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).Must(t, 201)
			}
			r := ts.Do(t, "POST", "/v1/compliance/report", a.Key, apitest.ReportBody(suspect)).Must(t, 201)
			if r.JSON["autoEscalated"] != false || r.JSON["countsTowardEscalation"] != false {
				t.Fatalf("fresh reporter %d: %s", i, r.Body)
			}
		}
		a := ts.Register(t, "")
		if ts.ScreenStatus(t, a.Key, suspect) != "clear" || ts.ListVersion(t) != v {
			t.Fatal("three fresh accounts listed an address")
		}
		st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200).JSON["community"].(map[string]any)
		if st["totalReports"] != float64(3) || st["byStatus"].(map[string]any)["pending"] != float64(3) {
			t.Fatalf("reports of fresh accounts are counted in stats: %v", st)
		}
		pending := ts.Do(t, "GET", "/v1/admin/reports?status=pending", apitest.AdminToken, nil).Must(t, 200).JSON["reports"].([]any)
		if len(pending) != 3 || pending[0].(map[string]any)["established"] != false {
			t.Fatalf("pending reports: %v", pending)
		}
	})
	t.Run("OldEnoughAndUsed", func(t *testing.T) {
		ts := apitest.NewServer(t, apitest.SanctionsLists(t), func(p *wiring.Parts) { p.ReportMinAccountAge = 0 })
		const suspect = "0x00000000000000000000000000000000000f4e52"
		idle := ts.Register(t, "") // never charged: not established at any age
		if r := ts.Do(t, "POST", "/v1/compliance/report", idle.Key, apitest.ReportBody(suspect)).Must(t, 201); r.JSON["countsTowardEscalation"] != false {
			t.Fatalf("an account that never used the service: %s", r.Body)
		}
		for i := range 3 {
			a := ts.Register(t, "")
			ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).Must(t, 201)
			r := ts.Do(t, "POST", "/v1/compliance/report", a.Key, apitest.ReportBody(suspect)).Must(t, 201)
			if r.JSON["countsTowardEscalation"] != true || r.JSON["autoEscalated"] != (i == 2) {
				t.Fatalf("used reporter %d: %s", i, r.Body)
			}
		}
		if ts.ScreenStatus(t, idle.Key, suspect) != "flagged" {
			t.Fatal("three established accounts did not list the address")
		}
	})
}

// TestE2EModeration: administrators list, reject, confirm and delist; each
// decision changes the community tree in a new list version, moves the
// reports and is in the reporters' audit logs.
func TestE2EModeration(t *testing.T) {
	ts := screenServer(t)
	const suspect, innocent = "0x000000000000000000000000000000000000a11c", "0x000000000000000000000000000000000000b0b0"
	var reporters []apitest.Agent
	var ids []string
	var v3 float64
	for i := range 4 {
		a := ts.RegisterEstablished(t)
		r := ts.Do(t, "POST", "/v1/compliance/report", a.Key, apitest.ReportBody(suspect)).Must(t, 201)
		reporters, ids = append(reporters, a), append(ids, r.Str("reportId"))
		if i == 2 && ts.ScreenStatus(t, a.Key, suspect) != "flagged" {
			t.Fatal("not flagged after three established reporters")
		}
		if i == 2 {
			v3 = ts.ListVersion(t)
		}
	}
	v := ts.ListVersion(t)
	if v != v3 { // a report of an escalated address builds no new version
		t.Fatalf("the fourth report of an escalated address built a version: %v, then %v", v3, v)
	}
	key := reporters[0].Key

	t.Run("Auth", func(t *testing.T) {
		ts.Do(t, "GET", "/v1/admin/reports", key, nil).Problem(t, 401, cairn.EUNAUTHORIZED)
		ts.Do(t, "POST", "/v1/admin/reports/"+ids[0]+"/reject", "", map[string]any{"reason": "x"}).Problem(t, 401, cairn.EUNAUTHORIZED)
	})
	t.Run("ErrInput", func(t *testing.T) {
		ts.Do(t, "POST", "/v1/admin/reports/"+ids[0]+"/reject", apitest.AdminToken, map[string]any{}).Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "POST", "/v1/admin/reports/"+cairn.NewID()+"/reject", apitest.AdminToken, map[string]any{"reason": "x"}).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "POST", "/v1/admin/reports/nope/confirm", apitest.AdminToken, nil).Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "POST", "/v1/admin/community/delist", apitest.AdminToken, map[string]any{"address": innocent, "chain": "ethereum", "reason": "x"}).
			Problem(t, 404, cairn.ENOTFOUND)
		ts.Do(t, "POST", "/v1/admin/community/delist", apitest.AdminToken, map[string]any{"address": "nope", "chain": "ethereum", "reason": "x"}).
			Problem(t, 400, cairn.EINVALID)
		ts.Do(t, "GET", "/v1/admin/reports?status=maybe", apitest.AdminToken, nil).Problem(t, 400, cairn.EINVALID)
		if ts.ListVersion(t) != v {
			t.Fatal("a refused moderation built a list version")
		}
	})
	t.Run("List", func(t *testing.T) {
		p1 := ts.Do(t, "GET", "/v1/admin/reports?status=pending&limit=3", apitest.AdminToken, nil).Must(t, 200)
		items := p1.JSON["reports"].([]any)
		if len(items) != 3 || items[0].(map[string]any)["reportId"] != ids[3] || p1.JSON["nextCursor"] == nil {
			t.Fatalf("first page: %s", p1.Body)
		}
		p2 := ts.Do(t, "GET", "/v1/admin/reports?status=pending&limit=3&cursor="+p1.Str("nextCursor"), apitest.AdminToken, nil).Must(t, 200)
		if items := p2.JSON["reports"].([]any); len(items) != 1 || items[0].(map[string]any)["reportId"] != ids[0] || p2.JSON["nextCursor"] != nil {
			t.Fatalf("second page: %s", p2.Body)
		}
		// The cursor is signed and bound to its filter: a report id, the
		// cursor of another status, or an altered one is refused.
		for _, bad := range []string{ids[1], url.QueryEscape(p1.Str("nextCursor")) + "x"} {
			ts.Do(t, "GET", "/v1/admin/reports?status=pending&limit=3&cursor="+bad, apitest.AdminToken, nil).Problem(t, 400, cairn.EINVALID)
		}
		ts.Do(t, "GET", "/v1/admin/reports?status=confirmed&limit=3&cursor="+url.QueryEscape(p1.Str("nextCursor")), apitest.AdminToken, nil).
			Problem(t, 400, cairn.EINVALID)
	})
	// Reject, confirm and delist are one story over the suspect (each
	// step starts from what the one before left), so one subtest.
	t.Run("RejectConfirmDelist", func(t *testing.T) {
		ids := ids // this subtest appends a report
		// A rejection removes the address.
		r := ts.Do(t, "POST", "/v1/admin/reports/"+ids[1]+"/reject", apitest.AdminToken, map[string]any{"reason": "a legitimate exchange wallet"}).Must(t, 200)
		if r.JSON["communityListed"] != false || r.JSON["treeChanged"] != true || len(r.JSON["reports"].([]any)) != 4 {
			t.Fatalf("reject: %s", r.Body)
		}
		if ts.ScreenStatus(t, key, suspect) != "clear" || ts.ListVersion(t) != v+1 {
			t.Fatal("a rejected address is still listed, or no new version")
		}
		if rs := ts.Do(t, "GET", "/v1/admin/reports?status=rejected", apitest.AdminToken, nil).Must(t, 200).JSON["reports"].([]any); len(rs) != 4 {
			t.Fatalf("rejected reports: %v", rs)
		}
		log := ts.Do(t, "GET", "/v1/memory/audit?action=moderation", key, nil).Must(t, 200).JSON["entries"].([]any)
		if len(log) != 1 || log[0].(map[string]any)["resource"] != ids[0] ||
			log[0].(map[string]any)["detail"].(map[string]any)["reason"] != "a legitimate exchange wallet" {
			t.Fatalf("reporter's audit log: %v", log)
		}
		if log := ts.Do(t, "GET", "/v1/memory/audit?action=report", key, nil).Must(t, 200).JSON["entries"].([]any); len(log) != 1 {
			t.Fatalf("the report itself is not in the reporter's audit log: %v", log)
		}
		// The rejected reporters no longer count: a new one alone does not
		// list it again.
		n := ts.RegisterEstablished(t)
		r = ts.Do(t, "POST", "/v1/compliance/report", n.Key, apitest.ReportBody(suspect)).Must(t, 201)
		if r.JSON["autoEscalated"] != false || ts.ScreenStatus(t, key, suspect) != "clear" {
			t.Fatalf("report after rejection: %s", r.Body)
		}
		ids = append(ids, r.Str("reportId"))

		// Confirming the new report lists the address.
		r = ts.Do(t, "POST", "/v1/admin/reports/"+ids[4]+"/confirm", apitest.AdminToken, nil).Must(t, 200)
		if r.JSON["communityListed"] != true || r.JSON["treeChanged"] != true || len(r.JSON["reports"].([]any)) != 1 {
			t.Fatalf("confirm: %s", r.Body)
		}
		if ts.ScreenStatus(t, key, suspect) != "flagged" || ts.ListVersion(t) != v+2 {
			t.Fatal("a confirmed address is not listed, or no new version")
		}
		r = ts.Do(t, "POST", "/v1/admin/reports/"+ids[4]+"/confirm", apitest.AdminToken, map[string]any{"reason": "again"}).Must(t, 200)
		if r.JSON["treeChanged"] != false || ts.ListVersion(t) != v+2 {
			t.Fatalf("confirming a listed address again built a version: %s", r.Body)
		}

		// Delisting removes it again.
		r = ts.Do(t, "POST", "/v1/admin/community/delist", apitest.AdminToken, map[string]any{"address": suspect, "chain": "base",
			"reason": "court order"}).Must(t, 200)
		if r.JSON["action"] != "delist" || r.JSON["treeChanged"] != true || r.JSON["address"] != suspect {
			t.Fatalf("delist: %s", r.Body)
		}
		if ts.ScreenStatus(t, key, suspect) != "clear" || ts.ListVersion(t) != v+3 {
			t.Fatal("a delisted address is still listed")
		}
		hist := ts.Do(t, "GET", "/v1/compliance/history?address="+suspect+"&chain=ethereum", key, nil).Must(t, 200)
		events := hist.JSON["events"].([]any)
		if len(events) != 4 {
			t.Fatalf("history of the moderated address: %s", hist.Body)
		}
		for i, want := range []string{"listed", "delisted", "listed", "delisted"} {
			if e := events[i].(map[string]any); e["event"] != want || e["source"] != "community" {
				t.Fatalf("history event %d: %s", i, hist.Body)
			}
		}
	})
}
