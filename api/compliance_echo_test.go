package api_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EComplianceErrorsBoundEcho sends an unknown chain or a bad address
// of 100,000 characters to each endpoint that names it in its 400: the
// problem document quotes a bounded prefix, not the whole input.
func TestE2EComplianceErrorsBoundEcho(t *testing.T) {
	ts, a := screenAgent(t)
	long := strings.Repeat("z", 50000) // below --max-header-bytes: a longer URL is a 431
	for _, tc := range []struct {
		name, method, path string
		body               any
	}{
		{"ScreenChain", "POST", "/v1/compliance/screen", map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": long}}}},
		{"MerkleProofChain", "GET", "/v1/compliance/merkle-proof?address=" + apitest.Tornado + "&chain=" + long, nil},
		{"MerkleProofAddress", "GET", "/v1/compliance/merkle-proof?chain=ethereum&address=" + long, nil},
		{"BatchChain", "POST", "/v1/compliance/merkle-proof/batch", map[string]any{"addresses": []map[string]any{{"address": apitest.Tornado, "chain": long}}}},
		{"HistoryChain", "GET", "/v1/compliance/history?address=" + apitest.Tornado + "&chain=" + long, nil},
		{"HistoryAddress", "GET", "/v1/compliance/history?chain=ethereum&address=" + long, nil},
		{"ReportChain", "POST", "/v1/compliance/report", map[string]any{"address": apitest.Tornado, "chain": long, "category": "scam", "reason": "x"}},
	} {
		t.Run(tc.name, func(t *testing.T) {
			r := ts.Do(t, tc.method, tc.path, a.Key, tc.body).Problem(t, 400, cairn.EINVALID)
			if len(r.Body) > 1000 || !strings.Contains(r.Str("detail"), "zzzz") {
				t.Fatalf("problem of %d bytes: %.300s", len(r.Body), r.Body)
			}
		})
	}
}
