package ratelimit

import (
	"testing"
	"time"
)

func TestLimiter(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	t.Run("BurstThenDeny", func(t *testing.T) {
		l := New(3, 15*time.Minute)
		for i := 0; i < 3; i++ {
			d := l.Allow("ip", t0)
			if !d.Allowed || d.Remaining != 2-i {
				t.Fatalf("event %d: %+v", i, d)
			}
		}
		d := l.Allow("ip", t0)
		if d.Allowed || d.RetryAfter != 5*time.Minute {
			t.Fatalf("4th event: %+v", d)
		}
		if d := l.Allow("other", t0); !d.Allowed {
			t.Fatalf("keys must be independent: %+v", d)
		}
	})
	t.Run("Replenishes", func(t *testing.T) {
		l := New(60, time.Minute)
		for i := 0; i < 60; i++ {
			if !l.Allow("k", t0).Allowed {
				t.Fatalf("event %d denied", i)
			}
		}
		if l.Allow("k", t0.Add(999*time.Millisecond)).Allowed {
			t.Fatal("allowed before a cell replenished")
		}
		if !l.Allow("k", t0.Add(time.Second)).Allowed {
			t.Fatal("denied after one interval")
		}
		if d := l.Allow("k", t0.Add(2*time.Minute)); !d.Allowed || d.Remaining != 59 {
			t.Fatalf("after a full period: %+v", d)
		}
	})
	t.Run("Disabled", func(t *testing.T) {
		l := New(0, time.Minute)
		for i := 0; i < 1000; i++ {
			if !l.Allow("k", t0).Allowed {
				t.Fatal("disabled limiter denied")
			}
		}
	})
}
