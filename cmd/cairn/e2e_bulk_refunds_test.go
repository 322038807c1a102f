package main

import (
	"testing"

	"github.com/cairn-dev/cairn"
)

// TestE2EBulkRefundsPerItem: each item of a bulk request is billed as the
// request alone would be (spec 7): an item failing with 404 or 409 keeps
// its charge, one failing with 400, 413, 422 or 5xx gets it back. The
// charges that stand are marked settled, so a restart's recovery of
// charges does not refund them either.
func TestE2EBulkRefundsPerItem(t *testing.T) {
	dir := t.TempDir()
	cfg := testConfig(t, dir)
	ts := startServer(t, cfg)
	a := ts.register(t, "")
	r := ts.do(t, "POST", "/v1/memory/bulk", a.Key, map[string]any{"memories": []any{
		map[string]any{"key": "notes/a", "content": "first"},
		map[string]any{"key": "notes/a", "content": "same key"},
		map[string]any{"key": "notes/b", "content": "bad importance", "importance": 7},
	}}).must(t, 200)
	results, _ := r.JSON["results"].([]any)
	var statuses []int
	var id string
	for _, x := range results {
		m := x.(map[string]any)
		statuses = append(statuses, int(m["status"].(float64)))
		if s, ok := m["id"].(string); ok && id == "" {
			id = s
		}
	}
	if len(statuses) != 3 || statuses[0] != 201 || statuses[1] != 409 || statuses[2] != 400 {
		t.Fatalf("statuses %v, want [201 409 400]", statuses)
	}
	// bulk.write is 5: the stored item and the 409 pay, the 400 is refunded.
	if got := ts.balance(t, a.Key); got != 90 {
		t.Fatalf("balance %d after the bulk write, want 90", got)
	}
	r = ts.do(t, "POST", "/v1/memory/bulk-delete", a.Key, map[string]any{"ids": []string{id, cairn.NewID()}}).must(t, 200)
	results, _ = r.JSON["results"].([]any)
	if len(results) != 2 || results[1].(map[string]any)["status"].(float64) != 404 {
		t.Fatalf("bulk delete results %v, want the second 404", results)
	}
	// memory.delete is 2: the deletion and the 404 both pay.
	if got := ts.balance(t, a.Key); got != 86 {
		t.Fatalf("balance %d after the bulk delete, want 86", got)
	}
	ts.stop()
	ts = startServer(t, cfg)
	if got := ts.balance(t, a.Key); got != 86 {
		t.Fatalf("balance %d after a restart, want 86: the standing charges must not be recovered", got)
	}
}
