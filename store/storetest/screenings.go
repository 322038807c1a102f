package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunScreeningTests checks a store.Screenings implementation; open returns a
// fresh, empty store for each subtest.
func RunScreeningTests(t *testing.T, open func(t *testing.T) store.Screenings) {
	const limit = 10
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 8000, time.UTC)
	take := func(t *testing.T, s store.Screenings, dev string, n int, at time.Time) cairn.FreeTake {
		t.Helper()
		ft, err := s.TakeFree(ctx, dev, n, limit, time.Hour, at)
		if err != nil {
			t.Fatalf("TakeFree(%s, %d): %v", dev, n, err)
		}
		return ft
	}
	want := func(t *testing.T, got cairn.FreeTake, free, remaining int, start time.Time) {
		t.Helper()
		if got.Free != free || got.Remaining != remaining || !got.Start.Equal(start) || !got.Reset.Equal(start.Add(time.Hour)) {
			t.Fatalf("take = %+v, want free %d, remaining %d, window %v + 1h", got, free, remaining, start)
		}
	}
	t.Run("WindowFillsThenResets", func(t *testing.T) {
		s := open(t)
		want(t, take(t, s, "d1", 3, t0), 3, 7, t0)
		want(t, take(t, s, "d1", 8, t0.Add(time.Minute)), 7, 0, t0)
		want(t, take(t, s, "d1", 2, t0.Add(59*time.Minute)), 0, 0, t0)
		// A window lasts exactly its length: at start+1h a new one opens.
		at := t0.Add(time.Hour)
		want(t, take(t, s, "d1", 4, at), 4, 6, at)
		want(t, take(t, s, "d1", 0, at.Add(time.Second)), 0, 6, at)
	})
	t.Run("DevelopersAreSeparate", func(t *testing.T) {
		s := open(t)
		want(t, take(t, s, "d1", 10, t0), 10, 0, t0)
		later := t0.Add(10 * time.Minute)
		want(t, take(t, s, "d2", 1, later), 1, 9, later)
		want(t, take(t, s, "d1", 1, later), 0, 0, t0)
	})
	t.Run("GiveBack", func(t *testing.T) {
		s := open(t)
		ft := take(t, s, "d1", 6, t0)
		want(t, take(t, s, "d1", 2, t0.Add(time.Minute)), 2, 2, t0)
		mustOK(t, s.GiveBackFree(ctx, "d1", ft.Start, ft.Free), "GiveBackFree")
		want(t, take(t, s, "d1", 12, t0.Add(2*time.Minute)), 8, 0, t0)
		// More than was used leaves nothing used, and a window with nothing
		// used served no request: the next take opens a window of its own.
		mustOK(t, s.GiveBackFree(ctx, "d1", t0, 50), "GiveBackFree")
		at := t0.Add(3 * time.Minute)
		want(t, take(t, s, "d1", 1, at), 1, 9, at)
		// A window that ended takes nothing back from the next one.
		next := at.Add(time.Hour)
		want(t, take(t, s, "d1", 10, next), 10, 0, next)
		mustOK(t, s.GiveBackFree(ctx, "d1", at, 10), "GiveBackFree to an ended window")
		want(t, take(t, s, "d1", 1, next.Add(time.Minute)), 0, 0, next)
		mustOK(t, s.GiveBackFree(ctx, "unknown", t0, 3), "GiveBackFree of a developer without window")
		mustOK(t, s.GiveBackFree(ctx, "d1", next, 0), "GiveBackFree of nothing")
	})
	t.Run("ErrInvalid", func(t *testing.T) {
		s := open(t)
		for _, tc := range []struct {
			dev           string
			n, limit      int
			window        time.Duration
			what          string
			wantCodeOfErr string
		}{
			{"d1", -1, limit, time.Hour, "negative n", cairn.EINVALID},
			{"d1", 1, -1, time.Hour, "negative limit", cairn.EINVALID},
			{"d1", 1, limit, 0, "zero window", cairn.EINVALID},
			{"", 1, limit, time.Hour, "no developer", cairn.EINVALID},
		} {
			_, err := s.TakeFree(ctx, tc.dev, tc.n, tc.limit, tc.window, t0)
			if cairn.ErrorCode(err) != tc.wantCodeOfErr {
				t.Fatalf("%s: %v, want %s", tc.what, err, tc.wantCodeOfErr)
			}
		}
		wantCode(t, s.GiveBackFree(ctx, "d1", t0, -1), cairn.EINVALID)
		// Nothing was written by the refused calls.
		want(t, take(t, s, "d1", 1, t0.Add(time.Minute)), 1, 9, t0.Add(time.Minute))
	})
	t.Run("ConcurrentTakesNeverShareFreeAddresses", func(t *testing.T) {
		s := open(t)
		// concurrently runs workers that each take 2 addresses 5 times and,
		// when giveBack is set, give every second take back (a request
		// that was not served); it returns the free addresses kept.
		concurrently := func(dev string, giveBack bool) int {
			const workers, each = 16, 5
			var wg sync.WaitGroup
			var mu sync.Mutex
			kept := 0
			for w := 0; w < workers; w++ {
				wg.Go(func() {
					for i := 0; i < each; i++ {
						ft, err := s.TakeFree(ctx, dev, 2, limit, time.Hour, t0)
						if err != nil {
							t.Error(err)
							return
						}
						if giveBack && i%2 == 1 {
							if err := s.GiveBackFree(ctx, dev, ft.Start, ft.Free); err != nil {
								t.Error(err)
								return
							}
							ft.Free = 0
						}
						mu.Lock()
						kept += ft.Free
						mu.Unlock()
					}
				})
			}
			wg.Wait()
			return kept
		}
		if kept := concurrently("d1", false); kept != limit {
			t.Fatalf("%d free addresses handed out in one window of %d", kept, limit)
		}
		want(t, take(t, s, "d1", 1, t0.Add(time.Minute)), 0, 0, t0)
		kept := concurrently("d2", true)
		if kept > limit {
			t.Fatalf("%d free addresses kept in one window of %d", kept, limit)
		}
		// The window counts exactly the addresses that were kept.
		want(t, take(t, s, "d2", 0, t0.Add(time.Minute)), 0, limit-kept, t0)
	})
	t.Run("ScreeningCount", func(t *testing.T) {
		s := open(t)
		if n, err := s.ScreeningCount(ctx); err != nil || n != 0 {
			t.Fatalf("count of an empty store: %d, %v", n, err)
		}
		var wg sync.WaitGroup
		for i := 0; i < 20; i++ {
			wg.Go(func() {
				if err := s.AddScreenings(ctx, 1); err != nil {
					t.Error(err)
				}
			})
		}
		wg.Wait()
		mustOK(t, s.AddScreenings(ctx, 5), "AddScreenings")
		if n, err := s.ScreeningCount(ctx); err != nil || n != 25 {
			t.Fatalf("count %d, %v; want 25", n, err)
		}
	})
}

// RunScreeningPersistenceTest takes free addresses and counts screenings
// through the store open returns, then checks them through the store that
// reopen returns over the same data after closing the first.
func RunScreeningPersistenceTest(t *testing.T, open func(t *testing.T) store.Screenings,
	reopen func(t *testing.T, s store.Screenings) store.Screenings) {
	t0 := time.Date(2026, 3, 4, 5, 6, 7, 8000, time.UTC)
	s := open(t)
	for i, n := range []int{4, 6} { // the first opens the window, the second fills it
		if _, err := s.TakeFree(ctx, "d1", n, 10, time.Hour, t0.Add(time.Duration(i)*time.Minute)); err != nil {
			t.Fatal(err)
		}
	}
	ft, err := s.TakeFree(ctx, "d2", 5, 10, time.Hour, t0)
	mustOK(t, err, "TakeFree d2")
	mustOK(t, s.GiveBackFree(ctx, "d2", ft.Start, 2), "GiveBackFree d2")
	mustOK(t, s.AddScreenings(ctx, 3), "AddScreenings")
	s = reopen(t, s)
	for _, tc := range []struct {
		dev             string
		free, remaining int
	}{{"d1", 0, 0}, {"d2", 1, 6}} {
		ft, err := s.TakeFree(ctx, tc.dev, 1, 10, time.Hour, t0.Add(30*time.Minute))
		if err != nil || ft.Free != tc.free || ft.Remaining != tc.remaining || !ft.Start.Equal(t0) || !ft.Reset.Equal(t0.Add(time.Hour)) {
			t.Fatalf("%s after reopening: %+v, %v; want free %d, remaining %d in the window of %v", tc.dev, ft, err, tc.free, tc.remaining, t0)
		}
	}
	if n, err := s.ScreeningCount(ctx); err != nil || n != 3 {
		t.Fatalf("count after reopening: %d, %v; want 3", n, err)
	}
}
