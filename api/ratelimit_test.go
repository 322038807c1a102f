package api

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t.Run("BurstThenDeny", func(t *testing.T) {
		l := newLimiter(3, 15*time.Minute)
		for i := 0; i < 3; i++ {
			d := l.allow("ip", t0)
			if !d.allowed || d.remaining != 2-i {
				t.Fatalf("event %d: %+v", i, d)
			}
		}
		d := l.allow("ip", t0)
		if d.allowed || d.retryAfter != 5*time.Minute {
			t.Fatalf("4th event: %+v", d)
		}
		if d := l.allow("other", t0); !d.allowed {
			t.Fatalf("keys must be independent: %+v", d)
		}
	})
	t.Run("Replenishes", func(t *testing.T) {
		l := newLimiter(60, time.Minute)
		for i := 0; i < 60; i++ {
			if !l.allow("k", t0).allowed {
				t.Fatalf("event %d denied", i)
			}
		}
		if l.allow("k", t0.Add(999*time.Millisecond)).allowed {
			t.Fatal("allowed before a cell replenished")
		}
		if !l.allow("k", t0.Add(time.Second)).allowed {
			t.Fatal("denied after one interval")
		}
		if d := l.allow("k", t0.Add(2*time.Minute)); !d.allowed || d.remaining != 59 {
			t.Fatalf("after a full period: %+v", d)
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		l := newLimiter(0, time.Minute)
		for i := 0; i < 1000; i++ {
			if !l.allow("k", t0).allowed {
				t.Fatal("disabled limiter denied")
			}
		}
	})
}
