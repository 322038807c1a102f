package storetest

import (
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunRateLimitTests checks a store.RateLimits implementation. open returns
// a fresh, empty store for each subtest.
func RunRateLimitTests(t *testing.T, open func(t *testing.T) store.RateLimits) {
	t0 := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	take := func(t *testing.T, s store.RateLimits, key string, at time.Time) cairn.RateTake {
		t.Helper()
		r, err := s.TakeRate(ctx, key, 3, 15*time.Minute, at)
		mustOK(t, err, "TakeRate")
		return r
	}
	t.Run("BurstThenDeny", func(t *testing.T) {
		s := open(t)
		for i := 0; i < 3; i++ {
			if r := take(t, s, "ip\x00203.0.113.7", t0); !r.Allowed || r.Remaining != 2-i {
				t.Fatalf("event %d: %+v", i, r)
			}
		}
		if r := take(t, s, "ip\x00203.0.113.7", t0); r.Allowed || r.RetryAfter != 5*time.Minute || r.Reset != 15*time.Minute {
			t.Fatalf("4th event: %+v; want denied, retry in 5 min", r)
		}
		if r := take(t, s, "other", t0); !r.Allowed {
			t.Fatalf("keys must be independent: %+v", r)
		}
		if r := take(t, s, "ip\x00203.0.113.7", t0.Add(5*time.Minute)); !r.Allowed || r.Remaining != 0 {
			t.Fatalf("after one interval: %+v; want allowed, none left", r)
		}
	})
	t.Run("Invalid", func(t *testing.T) {
		s := open(t)
		for _, c := range []struct {
			key    string
			limit  int
			period time.Duration
		}{{"", 1, time.Hour}, {"k", 0, time.Hour}, {"k", 1, 0}} {
			if _, err := s.TakeRate(ctx, c.key, c.limit, c.period, t0); !cairn.IsCode(err, cairn.EINVALID) {
				t.Errorf("TakeRate(%q, %d, %s) = %v; want EINVALID", c.key, c.limit, c.period, err)
			}
		}
	})
	t.Run("ConcurrentTakesNeverOvershoot", func(t *testing.T) {
		s := open(t)
		var wg sync.WaitGroup
		var mu sync.Mutex
		allowed := 0
		for i := 0; i < 12; i++ {
			wg.Go(func() {
				r, err := s.TakeRate(ctx, "shared", 3, 15*time.Minute, t0)
				if err != nil {
					t.Error(err)
					return
				}
				if r.Allowed {
					mu.Lock()
					allowed++
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		if allowed != 3 {
			t.Fatalf("%d of 12 concurrent takes allowed; want exactly 3", allowed)
		}
	})
	t.Run("SweepRacingTakesNeverResetsACounter", func(t *testing.T) {
		// A counter whole again at t0 (its last event was an hour
		// before) is swept while events at t0 count against it: the sweep
		// may remove it only before the first of them, never a counter
		// one of them just wrote, so at most 3 of the events are allowed.
		s := open(t)
		for round := 0; round < 40; round++ {
			key := "race\x00" + string(rune('a'+round%26)) + string(rune('a'+round/26))
			take(t, s, key, t0.Add(-time.Hour))
			var wg sync.WaitGroup
			var mu sync.Mutex
			allowed := 0
			for i := 0; i < 8; i++ {
				wg.Go(func() {
					if r, err := s.TakeRate(ctx, key, 3, 15*time.Minute, t0); err != nil {
						t.Error(err)
					} else if r.Allowed {
						mu.Lock()
						allowed++
						mu.Unlock()
					}
				})
				wg.Go(func() {
					if _, err := s.DeleteRatesBefore(ctx, t0, 100); err != nil {
						t.Error(err)
					}
				})
			}
			wg.Wait()
			if allowed > 3 {
				t.Fatalf("round %d: %d of 8 events allowed against a limit of 3: a sweep removed a counter an event had just written", round, allowed)
			}
		}
	})
	t.Run("DeleteRatesBefore", func(t *testing.T) {
		s := open(t)
		take(t, s, "old", t0)                     // whole again at t0+5m
		take(t, s, "new", t0.Add(10*time.Minute)) // whole again at t0+15m
		n, err := s.DeleteRatesBefore(ctx, t0.Add(6*time.Minute), 10)
		if err != nil || n != 1 {
			t.Fatalf("DeleteRatesBefore = %d, %v; want 1", n, err)
		}
		// "new" kept its count: two more fit, not three.
		for i := 0; i < 2; i++ {
			if r := take(t, s, "new", t0.Add(10*time.Minute)); !r.Allowed {
				t.Fatalf("take %d denied", i)
			}
		}
		if r := take(t, s, "new", t0.Add(10*time.Minute)); r.Allowed {
			t.Fatal("the sweep removed a live counter")
		}
	})
}
