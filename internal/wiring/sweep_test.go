package wiring

import (
	"errors"
	"testing"
)

// TestSweepPaged: pages are asked for until one comes back short, and an
// error stops the sweep with what was removed so far.
func TestSweepPaged(t *testing.T) {
	left := 2*sweepPage + 7
	n, err := sweepPaged(func(page int) (int, error) {
		k := min(page, left)
		left -= k
		return k, nil
	})
	if err != nil || n != 2*sweepPage+7 || left != 0 {
		t.Fatalf("sweepPaged = %d, %v (left %d)", n, err, left)
	}
	calls, boom := 0, errors.New("boom")
	n, err = sweepPaged(func(page int) (int, error) {
		calls++
		if calls == 2 {
			return 3, boom
		}
		return page, nil
	})
	if !errors.Is(err, boom) || n != sweepPage+3 || calls != 2 {
		t.Fatalf("sweepPaged with an error = %d, %v after %d calls", n, err, calls)
	}
}
