package api_test

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestScreenAndHistoryShowPrograms: against the OFAC SDN list (the
// SDN_ADVANCED.XML excerpt of ingest/testdata), the screening answer's
// match of the Lazarus Group's address names its program after its entity,
// resultsHash covers it as served and stored, and the address's listing
// history names it too.
func TestScreenAndHistoryShowPrograms(t *testing.T) {
	const lazarus = "0x098B716B8Aaf21512996dC57EB0615e2383E2f96"
	ts := signingServer(t, "", apitest.Lists(t, "gov_sdn=../ingest/testdata/ofac_xml/sdn_advanced_mini.xml"))
	a := ts.Register(t, "")
	r := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": []map[string]any{{"address": lazarus, "chain": "ethereum"}}}).Must(t, 200)
	m := r.JSON["results"].([]any)[0].(map[string]any)["matches"].([]any)[0].(map[string]any)
	if m["entityName"] != "Lazarus Group" || fmt.Sprint(m["programs"]) != "[DPRK3]" {
		t.Fatalf("match %v", m)
	}
	ts.CheckResultsHash(t, a.Key, r)
	h := ts.Do(t, "GET", "/v1/compliance/history?chain=ethereum&address="+lazarus, a.Key, nil).Must(t, 200)
	ev := h.JSON["events"].([]any)
	if len(ev) != 1 || ev[0].(map[string]any)["event"] != "listed" || fmt.Sprint(ev[0].(map[string]any)["programs"]) != "[DPRK3]" {
		t.Fatalf("history events %v", ev)
	}
}
