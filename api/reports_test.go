package api_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

func TestE2ECommunityReports(t *testing.T) {
	ts := screenServer(t)
	const suspect = "0x00000000000000000000000000000000deadbeef"
	screen := func(key string, include bool) map[string]any {
		t.Helper()
		r := ts.Do(t, "POST", "/v1/compliance/screen", key, map[string]any{
			"addresses": []map[string]any{{"address": suspect, "chain": "ethereum"}}, "includeCommunity": include}).Must(t, 200)
		return r.JSON["results"].([]any)[0].(map[string]any)
	}
	reporters := []apitest.Agent{ts.RegisterEstablished(t), ts.RegisterEstablished(t), ts.RegisterEstablished(t)}
	body := map[string]any{"address": suspect, "chain": "ethereum", "category": "scam", "reason": "drained a wallet",
		"evidence": []string{"https://example.org/incident"}}

	t.Run("Validation", func(t *testing.T) {
		k := reporters[0].Key
		for _, bad := range []map[string]any{
			{"chain": "ethereum", "category": "scam", "reason": "x"},
			{"address": suspect, "category": "gossip", "reason": "x"},
			{"address": suspect, "category": "scam"},
			{"address": suspect, "category": "scam", "reason": "x", "chain": "narnia"},
			{"address": "nope", "category": "scam", "reason": "x", "chain": "ethereum"},
			{"address": suspect, "category": "scam", "reason": "x", "evidence": []string{"javascript:alert(1)"}},
		} {
			ts.Do(t, "POST", "/v1/compliance/report", k, bad).Problem(t, 400, cairn.EINVALID)
		}
		ts.Do(t, "POST", "/v1/compliance/report", "", body).Problem(t, 401, cairn.EUNAUTHORIZED)
	})
	for i, a := range reporters {
		r := ts.Do(t, "POST", "/v1/compliance/report", a.Key, body).Must(t, 201)
		if r.Str("status") != "pending" || r.JSON["autoEscalated"] != (i == 2) || r.Str("disclaimer") == "" || !cairn.ValidID(r.Str("reportId")) {
			t.Fatalf("report %d: %s", i, r.Body)
		}
		if i == 0 {
			ts.Do(t, "POST", "/v1/compliance/report", a.Key, body).Problem(t, 409, cairn.ECONFLICT)
			// Another agent of the same account does not count as a second reporter.
			kid := ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201)
			ts.Do(t, "POST", "/v1/compliance/report", kid.Str("apiKey"), body).Problem(t, 409, cairn.ECONFLICT)
		}
		if i < 2 && screen(a.Key, true)["status"] != "clear" {
			t.Fatalf("escalated after %d reports", i+1)
		}
	}
	got := screen(reporters[0].Key, true)
	m := got["matches"].([]any)[0].(map[string]any)
	if got["status"] != "flagged" || m["source"] != "community" || m["category"] != "scam" {
		t.Fatalf("after escalation: %v", got)
	}
	if screen(reporters[0].Key, false)["status"] != "clear" {
		t.Fatal("includeCommunity false still reports the community listing")
	}
	// The report without chain detects the family.
	r := ts.Do(t, "POST", "/v1/compliance/report", reporters[1].Key, map[string]any{"address": "12QtD5BFwRsdNsAZY76UVE1xyCGNTojH9h",
		"category": "theft", "reason": "x"}).Must(t, 201)
	if r.JSON["autoEscalated"] != false {
		t.Fatal(r.Body)
	}
	st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
	comp, comm := st.JSON["compliance"].(map[string]any), st.JSON["community"].(map[string]any)
	if comm["totalReports"] != float64(4) || comm["byCategory"].(map[string]any)["scam"] != float64(3) ||
		comp["bySource"].(map[string]any)["community"] != float64(1) || comp["totalScreenings"].(float64) < 4 ||
		!strings.HasPrefix(comp["lastIngestion"].(map[string]any)["source"].(string), "list:") {
		t.Fatalf("stats: %s", st.Body)
	}
}

func TestE2EReportLimit(t *testing.T) {
	ts, a := screenAgent(t)
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "t"}).Must(t, 200)
	k := a.Key
	sent := 0
	for i := 0; sent < 20; i++ {
		if i%15 == 14 { // fresh agent of the same account: the per-agent write limit is not what is tested
			k = ts.Do(t, "POST", "/v1/agents", a.Key, nil).Must(t, 201).Str("apiKey")
		}
		addr := "0x" + strings.Repeat("0", 36) + hex4(i)
		ts.Do(t, "POST", "/v1/compliance/report", k, map[string]any{"address": addr, "chain": "ethereum", "category": "other", "reason": "x"}).Must(t, 201)
		sent++
	}
	ts.Do(t, "POST", "/v1/compliance/report", k, map[string]any{"address": "0x" + strings.Repeat("f", 40), "chain": "ethereum", "category": "other", "reason": "x"}).
		Problem(t, 429, cairn.ERATELIMIT)
}

func hex4(i int) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[i>>12&15], digits[i>>8&15], digits[i>>4&15], digits[i&15]})
}

// TestE2EReportMalformed sends reports with wrong types, nulls, empty and
// overlong fields: each is a 400 and stores nothing; a report at every
// limit (2000-byte reason, 10 URLs, padded chain) is taken.
func TestE2EReportMalformed(t *testing.T) {
	ts, a := screenAgent(t)
	const suspect = "0x00000000000000000000000000000000deadbeef"
	ok := func(extra map[string]any) map[string]any {
		b := map[string]any{"address": suspect, "category": "scam", "reason": "x"}
		for k, v := range extra {
			b[k] = v
		}
		return b
	}
	tenURLs := strings.Split(strings.TrimSuffix(strings.Repeat("https://example.org/,", 11), ","), ",")
	for _, tc := range []struct {
		name string
		body any
	}{
		{"Null", `null`},
		{"Array", `[]`},
		{"AddressNull", `{"address":null,"category":"scam","reason":"x"}`},
		{"AddressNumber", `{"address":1,"category":"scam","reason":"x"}`},
		{"AddressLong", ok(map[string]any{"address": strings.Repeat("a", 100000)})},
		{"AddressUnicode", ok(map[string]any{"address": "0x00000000000000000000000000000000deadbeeé"})},
		{"CategoryUpper", ok(map[string]any{"category": "SCAM"})},
		{"CategoryNull", ok(map[string]any{"category": nil})},
		{"ReasonSpaces", ok(map[string]any{"reason": " \t\n"})},
		{"ReasonTooLong", ok(map[string]any{"reason": strings.Repeat("x", 2001)})},
		{"ReasonNumber", `{"address":"` + suspect + `","category":"scam","reason":5}`},
		{"EvidenceString", ok(map[string]any{"evidence": "https://example.org/"})},
		{"EvidenceNullItem", ok(map[string]any{"evidence": []any{nil}})},
		{"EvidenceEmptyItem", ok(map[string]any{"evidence": []string{""}})},
		{"EvidenceEleven", ok(map[string]any{"evidence": tenURLs})},
		{"EvidenceLong", ok(map[string]any{"evidence": []string{"https://example.org/" + strings.Repeat("a", 2048)}})},
		{"EvidenceNoHost", ok(map[string]any{"evidence": []string{"https:///x"}})},
		{"ChainNumber", `{"address":"` + suspect + `","category":"scam","reason":"x","chain":1}`},
		{"ChainOtherFamily", ok(map[string]any{"chain": "bitcoin"})},
	} {
		t.Run(tc.name, func(t *testing.T) {
			ts.Do(t, "POST", "/v1/compliance/report", a.Key, tc.body).Problem(t, 400, cairn.EINVALID)
		})
	}
	ts.Do(t, "POST", "/v1/compliance/report", a.Key, ok(map[string]any{"reason": strings.Repeat("x", 2000),
		"evidence": tenURLs[:10], "chain": " Ethereum "})).Must(t, 201)
	st := ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
	if st.JSON["community"].(map[string]any)["totalReports"] != float64(1) {
		t.Fatalf("stats: %s", st.Body)
	}
}
