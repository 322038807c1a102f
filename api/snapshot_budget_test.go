package api_test

import (
	"crypto/sha256"
	"encoding/hex"
	"os"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/api/apitest"
	"github.com/cairn-dev/cairn/internal/wiring"
)

// TestSnapshotByteBudget: the source snapshots, served to anyone, are
// counted in MiB per hour per client network: past the budget a download
// is 429 with Retry-After, a range costs what it asks for, and another
// network has its own budget.
func TestSnapshotByteBudget(t *testing.T) {
	eth, _ := apitest.ListFiles(t)
	ts := apitest.NewServer(t, apitest.Lists(t, "list:ETH="+eth), func(p *wiring.Parts) {
		p.TrustedProxies = []string{"127.0.0.1"}
		p.Limits.SnapshotMiBPerIP, p.Limits.PublicPerIP = 2, 0
	})
	body, err := os.ReadFile(eth)
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(body)
	path := "/v1/compliance/snapshots/" + hex.EncodeToString(sum[:])
	get := func(ip string, hdr ...string) *apitest.Response {
		return ts.Do(t, "GET", path, "", nil, append([]string{"X-Forwarded-For", ip}, hdr...)...)
	}
	// The snapshot (a few KB) costs 1 MiB a download: two fit.
	for range 2 {
		if r := get("2001:db8:5::1").Must(t, 200); len(r.Body) != len(body) {
			t.Fatalf("snapshot of %d bytes, want %d", len(r.Body), len(body))
		}
	}
	r := get("2001:db8:5::2").Problem(t, 429, cairn.ERATELIMIT) // the same /64
	if r.Header.Get("Retry-After") == "" || r.JSON["policy"] != "snapshot-bytes" {
		t.Fatalf("over the budget: %v %s", r.Header, r.Body)
	}
	get("2001:db8:5::3", "Range", "bytes=0-99").Problem(t, 429, cairn.ERATELIMIT)
	get("2001:db8:6::1", "Range", "bytes=0-99").Must(t, 206) // another /64
	get("198.51.100.7").Must(t, 200)
}
