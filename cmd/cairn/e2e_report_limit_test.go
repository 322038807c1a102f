package main

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
)

// reportSome sends n reports of distinct addresses (from the first-th on)
// by key to ts, each accepted.
func reportSome(t *testing.T, ts *testServer, key string, first, n int) {
	t.Helper()
	for i := first; i < first+n; i++ {
		ts.do(t, "POST", "/v1/compliance/report", key, reportBody(fmt.Sprintf("0x%040x", 0xbad000+i))).must(t, 201)
	}
}

// TestE2EReportLimitStored: the 20 community reports per hour of an
// account are counted in the store: on the embedded store a restart does
// not reset them; on PostgreSQL two instances count them together.
func TestE2EReportLimitStored(t *testing.T) {
	t.Run("PebbleRestart", func(t *testing.T) {
		cfg := testConfig(t, t.TempDir())
		ts := startServer(t, cfg)
		a := ts.register(t, "")
		reportSome(t, ts, a.Key, 0, 20)
		ts.stop()
		ts = startServer(t, cfg)
		r := ts.do(t, "POST", "/v1/compliance/report", a.Key, reportBody(fmt.Sprintf("0x%040x", 0xbad100))).problem(t, 429, cairn.ERATELIMIT)
		if r.Header.Get("Retry-After") == "" {
			t.Fatal("429 without Retry-After")
		}
	})
	t.Run("PostgresTwoInstances", func(t *testing.T) {
		a, b := pgPair(t)
		agent := a.register(t, "")
		reportSome(t, a, agent.Key, 0, 10)
		reportSome(t, b, agent.Key, 10, 10)
		for _, ts := range []*testServer{a, b} {
			ts.do(t, "POST", "/v1/compliance/report", agent.Key, reportBody(fmt.Sprintf("0x%040x", 0xbad200))).problem(t, 429, cairn.ERATELIMIT)
		}
	})
}
