package api_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestE2ERateClassesByOperation: the write limit counts the operations
// that change stored data; searches, vector searches, screening and
// Merkle proof lookups are reads, whatever their HTTP method (spec 8: reads
// have no limit but the per-key cap).
func TestE2ERateClassesByOperation(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.WritesPerAgent = 2
	})
	a := ts.Register(t, "")
	ts.TopUp(t, a, 1000)
	addr := []map[string]any{{"address": "0x8589427373D6D84E98730D7795D8F6F8731FDA16", "chain": "ethereum"}}
	for i := 0; i < 4; i++ {
		ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"contentQuery": "team"}).Must(t, 200)
		ts.Do(t, "POST", "/v1/memory/vector-search", a.Key, map[string]any{"query": "team"}).Must(t, 200)
		if st := ts.Do(t, "POST", "/v1/compliance/screen", a.Key, map[string]any{"addresses": addr}).Status; st == 429 {
			t.Fatalf("screening %d: 429, a read counted as a write", i)
		}
		if st := ts.Do(t, "POST", "/v1/compliance/merkle-proof/batch", a.Key, map[string]any{"addresses": addr}).Status; st == 429 {
			t.Fatalf("merkle proof batch %d: 429, a read counted as a write", i)
		}
	}
	for i := 0; i < 2; i++ {
		ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k/" + string(rune('a'+i)), "content": "x"}).Must(t, 201)
	}
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "k/c", "content": "x"}).Problem(t, 429, cairn.ERATELIMIT)
}

// TestE2EStatsLimitedPerIP: the public statistics are limited per client
// IP like the other reads without an account.
func TestE2EStatsLimitedPerIP(t *testing.T) {
	ts := apitest.NewServer(t, func(p *wiring.Parts) {
		p.Limits.PublicPerIP = 2
	})
	for i := 0; i < 2; i++ {
		ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Must(t, 200)
	}
	ts.Do(t, "GET", "/v1/compliance/stats", "", nil).Problem(t, 429, cairn.ERATELIMIT)
}

// TestE2EPublicReadsAreLimited: proofs and snapshots read without an
// account are limited per client IP.
func TestE2EPublicReadsAreLimited(t *testing.T) {
	ts := apitest.NewServer(t, apitest.SanctionsLists(t), func(p *wiring.Parts) { p.Limits.PublicPerIP = 3 })
	id := cairn.NewRandomID()
	for range 3 {
		ts.Do(t, "GET", "/v1/compliance/proofs/"+id, "", nil).Problem(t, 404, cairn.ENOTFOUND)
	}
	r := ts.Do(t, "GET", "/v1/compliance/snapshots/"+strings.Repeat("0", 64), "", nil).Problem(t, 429, cairn.ERATELIMIT)
	if r.Header.Get("Retry-After") == "" {
		t.Fatal("no Retry-After")
	}
}
