package pebble_test

import (
	"context"
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn/store/pebble"
)

// TestSyncWaitsCounted: every synced commit (here a proof's) is counted
// once in the waits' histogram, whose buckets are cumulative and end at or
// below the count; the waits add up to a positive time on a real disk.
func TestSyncWaitsCounted(t *testing.T) {
	ctx := context.Background()
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	_, _, before, _ := db.SyncWaits()
	const n = 20
	for i := range n {
		if err := db.PutProof(ctx, fmt.Sprintf("p%d", i), []byte("doc")); err != nil {
			t.Fatal(err)
		}
	}
	bounds, cumulative, count, seconds := db.SyncWaits()
	if count != before+n {
		t.Fatalf("%d synced commits counted after %d proofs, want %d", count, n, before+n)
	}
	if len(cumulative) != len(bounds) || seconds <= 0 {
		t.Fatalf("%d buckets for %d bounds, %v s in all", len(cumulative), len(bounds), seconds)
	}
	for i := range cumulative {
		if (i > 0 && (cumulative[i] < cumulative[i-1] || bounds[i] <= bounds[i-1])) || cumulative[i] > count {
			t.Fatalf("buckets not cumulative: bounds %v, counts %v of %d", bounds, cumulative, count)
		}
	}
	if stalls, s := db.WriteStalls(); stalls != 0 || s != 0 {
		t.Fatalf("%d write stalls (%v s) for 20 small writes", stalls, s)
	}
}
