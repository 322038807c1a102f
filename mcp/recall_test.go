package mcp_test

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/api/apitest"
)

// TestE2EMCPRecallExactKey: recall by key finds the key itself however many
// keys extend it (recall searches by key and takes the exact match, so the
// exact key must rank above the keys it prefixes, including the ones that
// sort before it: "A/..." sorts before "a").
func TestE2EMCPRecallExactKey(t *testing.T) {
	ts := apitest.NewServer(t)
	a := ts.Register(t, "")
	ts.Do(t, "POST", "/v1/admin/credits", apitest.AdminToken, map[string]any{"developerId": a.DeveloperID, "amount": 1000, "reason": "keys"}).Must(t, 200)
	for b := 0; b < 6; b++ {
		var ms []any
		for i := range 20 {
			ms = append(ms, map[string]any{"key": fmt.Sprintf("A/%03d", b*20+i), "content": "an extension of the key"})
		}
		ts.Do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": ms}).Must(t, 200)
	}
	ts.Do(t, "POST", "/v1/memory", a.Key, map[string]any{"key": "a", "content": "the key itself"}).Must(t, 201)

	s := startMCP(t, ts, a.Key)
	if got := s.ok("recall", map[string]any{"key": "a"}, 1).result(); got["content"] != "the key itself" || got["key"] != "a" {
		t.Fatalf("recall a: %v", got)
	}
	if got := s.ok("recall", map[string]any{"key": "A/119"}, 1).result(); got["content"] != "an extension of the key" {
		t.Fatalf("recall A/119: %v", got)
	}
	// Searching by key directly: the exact key scores 3 and comes first.
	r := ts.Do(t, "POST", "/v1/memory/search", a.Key, map[string]any{"query": "a", "limit": 5}).Must(t, 200)
	first := r.JSON["results"].([]any)[0].(map[string]any)
	if first["key"] != "a" || first["score"] != float64(3) {
		t.Fatalf("first result %v, want key a with score 3", first)
	}
}
