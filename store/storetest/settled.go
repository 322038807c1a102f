package storetest

import (
	"slices"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/store"
)

// RunSettledTests checks a store.Settled implementation. open returns a
// fresh, empty store for each subtest.
func RunSettledTests(t *testing.T, open func(t *testing.T) store.Settled) {
	since := func(t *testing.T, s store.Settled, at time.Time) []string {
		t.Helper()
		var out []string
		mustOK(t, s.SettledSince(ctx, at, func(id string) bool { out = append(out, id); return true }), "SettledSince")
		return out
	}
	t.Run("MarkSinceSweep", func(t *testing.T) {
		s := open(t)
		mustOK(t, s.MarkSettled(ctx, []string{"c1", "c2"}, t0), "MarkSettled")
		mustOK(t, s.MarkSettled(ctx, []string{"c3"}, t0.Add(time.Minute)), "MarkSettled")
		mustOK(t, s.MarkSettled(ctx, nil, t0), "MarkSettled none")
		if got := since(t, s, time.Time{}); !slices.Equal(got, []string{"c1", "c2", "c3"}) {
			t.Fatalf("SettledSince(zero) = %v", got)
		}
		if got := since(t, s, t0.Add(time.Second)); !slices.Equal(got, []string{"c3"}) {
			t.Fatalf("SettledSince(t0+1s) = %v", got)
		}
		n := 0
		mustOK(t, s.SettledSince(ctx, t0, func(string) bool { n++; return false }), "SettledSince")
		if n != 1 {
			t.Fatalf("fn ran %d times after returning false", n)
		}
		if n, err := s.DeleteSettledBefore(ctx, t0.Add(time.Second), 1); err != nil || n != 1 {
			t.Fatalf("DeleteSettledBefore = %d, %v; want 1", n, err)
		}
		if n, err := s.DeleteSettledBefore(ctx, t0.Add(time.Second), 10); err != nil || n != 1 {
			t.Fatalf("DeleteSettledBefore = %d, %v; want 1", n, err)
		}
		if got := since(t, s, time.Time{}); !slices.Equal(got, []string{"c3"}) {
			t.Fatalf("after the sweep: %v", got)
		}
	})
}
