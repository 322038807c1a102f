package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// screenStatus screens one ETH address with community listings
// (apitest.Client.ScreenStatus).
func screenStatus(t *testing.T, ts *testServer, key, addr string) string {
	t.Helper()
	return ts.client().ScreenStatus(t, key, addr)
}

func listVersion(t *testing.T, ts *testServer) float64 {
	t.Helper()
	return ts.client().ListVersion(t)
}

func reportBody(addr string) map[string]any { return apitest.ReportBody(addr) }

// TestE2EFreshAccountsDoNotEscalate: one person with three free
// registrations cannot list an address; their reports are stored and
// counted, and count once the accounts are established.
func TestE2EFreshAccountsDoNotEscalate(t *testing.T) {
	t.Run("DefaultAge", func(t *testing.T) {
		ts, _ := complianceServer(t)
		const suspect = "0x00000000000000000000000000000000000f4e51"
		v := listVersion(t, ts)
		for i := range 3 {
			a := ts.register(t, "")
			if i == 2 { // a fresh account that has used the service is still fresh
				ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).must(t, 201)
			}
			r := ts.do(t, "POST", "/v1/compliance/report", a.Key, reportBody(suspect)).must(t, 201)
			if r.JSON["autoEscalated"] != false || r.JSON["countsTowardEscalation"] != false {
				t.Fatalf("fresh reporter %d: %s", i, r.Body)
			}
		}
		a := ts.register(t, "")
		if screenStatus(t, ts, a.Key, suspect) != "clear" || listVersion(t, ts) != v {
			t.Fatal("three fresh accounts listed an address")
		}
		st := ts.do(t, "GET", "/v1/compliance/stats", "", nil).must(t, 200).JSON["community"].(map[string]any)
		if st["totalReports"] != float64(3) || st["byStatus"].(map[string]any)["pending"] != float64(3) {
			t.Fatalf("reports of fresh accounts are counted in stats: %v", st)
		}
		pending := ts.do(t, "GET", "/v1/admin/reports?status=pending", admin, nil).must(t, 200).JSON["reports"].([]any)
		if len(pending) != 3 || pending[0].(map[string]any)["established"] != false {
			t.Fatalf("pending reports: %v", pending)
		}
	})
	t.Run("OldEnoughAndUsed", func(t *testing.T) {
		cfg, _ := complianceConfig(t)
		cfg.ReportMinAccountAge = 0
		ts := startServer(t, cfg)
		const suspect = "0x00000000000000000000000000000000000f4e52"
		idle := ts.register(t, "") // never charged: not established at any age
		if r := ts.do(t, "POST", "/v1/compliance/report", idle.Key, reportBody(suspect)).must(t, 201); r.JSON["countsTowardEscalation"] != false {
			t.Fatalf("an account that never used the service: %s", r.Body)
		}
		for i := range 3 {
			a := ts.register(t, "")
			ts.do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k", "content": "x"}).must(t, 201)
			r := ts.do(t, "POST", "/v1/compliance/report", a.Key, reportBody(suspect)).must(t, 201)
			if r.JSON["countsTowardEscalation"] != true || r.JSON["autoEscalated"] != (i == 2) {
				t.Fatalf("used reporter %d: %s", i, r.Body)
			}
		}
		if screenStatus(t, ts, idle.Key, suspect) != "flagged" {
			t.Fatal("three established accounts did not list the address")
		}
	})
}

// TestE2EModeration: administrators list, reject, confirm and delist; each
// decision changes the community tree in a new list version, moves the
// reports and is in the reporters' audit logs.
func TestE2EModeration(t *testing.T) {
	ts, _ := complianceServer(t)
	const suspect, innocent = "0x000000000000000000000000000000000000a11c", "0x000000000000000000000000000000000000b0b0"
	var reporters []agent
	var ids []string
	var v3 float64
	for i := range 4 {
		a := ts.registerEstablished(t)
		r := ts.do(t, "POST", "/v1/compliance/report", a.Key, reportBody(suspect)).must(t, 201)
		reporters, ids = append(reporters, a), append(ids, r.str("reportId"))
		if i == 2 && screenStatus(t, ts, a.Key, suspect) != "flagged" {
			t.Fatal("not flagged after three established reporters")
		}
		if i == 2 {
			v3 = listVersion(t, ts)
		}
	}
	v := listVersion(t, ts)
	if v != v3 { // a report of an escalated address builds no new version
		t.Fatalf("the fourth report of an escalated address built a version: %v, then %v", v3, v)
	}
	key := reporters[0].Key

	t.Run("Auth", func(t *testing.T) {
		ts.do(t, "GET", "/v1/admin/reports", key, nil).problem(t, 401, cairn.EUNAUTHORIZED)
		ts.do(t, "POST", "/v1/admin/reports/"+ids[0]+"/reject", "", map[string]any{"reason": "x"}).problem(t, 401, cairn.EUNAUTHORIZED)
	})
	t.Run("ErrInput", func(t *testing.T) {
		ts.do(t, "POST", "/v1/admin/reports/"+ids[0]+"/reject", admin, map[string]any{}).problem(t, 400, cairn.EINVALID)
		ts.do(t, "POST", "/v1/admin/reports/"+cairn.NewID()+"/reject", admin, map[string]any{"reason": "x"}).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "POST", "/v1/admin/reports/nope/confirm", admin, nil).problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "POST", "/v1/admin/community/delist", admin, map[string]any{"address": innocent, "chain": "ethereum", "reason": "x"}).
			problem(t, 404, cairn.ENOTFOUND)
		ts.do(t, "POST", "/v1/admin/community/delist", admin, map[string]any{"address": "nope", "chain": "ethereum", "reason": "x"}).
			problem(t, 400, cairn.EINVALID)
		ts.do(t, "GET", "/v1/admin/reports?status=maybe", admin, nil).problem(t, 400, cairn.EINVALID)
		if listVersion(t, ts) != v {
			t.Fatal("a refused moderation built a list version")
		}
	})
	t.Run("List", func(t *testing.T) {
		p1 := ts.do(t, "GET", "/v1/admin/reports?status=pending&limit=3", admin, nil).must(t, 200)
		items := p1.JSON["reports"].([]any)
		if len(items) != 3 || items[0].(map[string]any)["reportId"] != ids[3] || p1.JSON["nextCursor"] == nil {
			t.Fatalf("first page: %s", p1.Body)
		}
		p2 := ts.do(t, "GET", "/v1/admin/reports?status=pending&limit=3&cursor="+p1.str("nextCursor"), admin, nil).must(t, 200)
		if items := p2.JSON["reports"].([]any); len(items) != 1 || items[0].(map[string]any)["reportId"] != ids[0] || p2.JSON["nextCursor"] != nil {
			t.Fatalf("second page: %s", p2.Body)
		}
	})
	// Reject, confirm and delist are one story over the suspect (each
	// step starts from what the one before left), so one subtest.
	t.Run("RejectConfirmDelist", func(t *testing.T) {
		ids := ids // this subtest appends a report
		// A rejection removes the address.
		r := ts.do(t, "POST", "/v1/admin/reports/"+ids[1]+"/reject", admin, map[string]any{"reason": "a legitimate exchange wallet"}).must(t, 200)
		if r.JSON["communityListed"] != false || r.JSON["treeChanged"] != true || len(r.JSON["reports"].([]any)) != 4 {
			t.Fatalf("reject: %s", r.Body)
		}
		if screenStatus(t, ts, key, suspect) != "clear" || listVersion(t, ts) != v+1 {
			t.Fatal("a rejected address is still listed, or no new version")
		}
		if rs := ts.do(t, "GET", "/v1/admin/reports?status=rejected", admin, nil).must(t, 200).JSON["reports"].([]any); len(rs) != 4 {
			t.Fatalf("rejected reports: %v", rs)
		}
		log := ts.do(t, "GET", "/v1/memory/audit?action=moderation", key, nil).must(t, 200).JSON["entries"].([]any)
		if len(log) != 1 || log[0].(map[string]any)["resource"] != ids[0] ||
			log[0].(map[string]any)["detail"].(map[string]any)["reason"] != "a legitimate exchange wallet" {
			t.Fatalf("reporter's audit log: %v", log)
		}
		if log := ts.do(t, "GET", "/v1/memory/audit?action=report", key, nil).must(t, 200).JSON["entries"].([]any); len(log) != 1 {
			t.Fatalf("the report itself is not in the reporter's audit log: %v", log)
		}
		// The rejected reporters no longer count: a new one alone does not
		// list it again.
		n := ts.registerEstablished(t)
		r = ts.do(t, "POST", "/v1/compliance/report", n.Key, reportBody(suspect)).must(t, 201)
		if r.JSON["autoEscalated"] != false || screenStatus(t, ts, key, suspect) != "clear" {
			t.Fatalf("report after rejection: %s", r.Body)
		}
		ids = append(ids, r.str("reportId"))

		// Confirming the new report lists the address.
		r = ts.do(t, "POST", "/v1/admin/reports/"+ids[4]+"/confirm", admin, nil).must(t, 200)
		if r.JSON["communityListed"] != true || r.JSON["treeChanged"] != true || len(r.JSON["reports"].([]any)) != 1 {
			t.Fatalf("confirm: %s", r.Body)
		}
		if screenStatus(t, ts, key, suspect) != "flagged" || listVersion(t, ts) != v+2 {
			t.Fatal("a confirmed address is not listed, or no new version")
		}
		r = ts.do(t, "POST", "/v1/admin/reports/"+ids[4]+"/confirm", admin, map[string]any{"reason": "again"}).must(t, 200)
		if r.JSON["treeChanged"] != false || listVersion(t, ts) != v+2 {
			t.Fatalf("confirming a listed address again built a version: %s", r.Body)
		}

		// Delisting removes it again.
		r = ts.do(t, "POST", "/v1/admin/community/delist", admin, map[string]any{"address": suspect, "chain": "base",
			"reason": "court order"}).must(t, 200)
		if r.JSON["action"] != "delist" || r.JSON["treeChanged"] != true || r.JSON["address"] != suspect {
			t.Fatalf("delist: %s", r.Body)
		}
		if screenStatus(t, ts, key, suspect) != "clear" || listVersion(t, ts) != v+3 {
			t.Fatal("a delisted address is still listed")
		}
		hist := ts.do(t, "GET", "/v1/compliance/history?address="+suspect+"&chain=ethereum", key, nil).must(t, 200)
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
