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

// TestLimiterWeighted: an event of weight n takes n units of the budget;
// one heavier than the whole budget takes all of it, allowed on a fresh
// key only; the budget refills at its rate.
func TestLimiterWeighted(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	l := New(100, time.Hour) // 100 units an hour, one each 36 s
	if d := l.AllowN("ip", t0, 60); !d.Allowed || d.Remaining != 40 {
		t.Fatalf("60 of 100: %+v", d)
	}
	if d := l.AllowN("ip", t0, 50); d.Allowed || d.RetryAfter != 10*36*time.Second {
		t.Fatalf("50 more of the 40 left: %+v", d)
	}
	if d := l.AllowN("ip", t0, 40); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("the 40 left: %+v", d)
	}
	if d := l.AllowN("ip", t0.Add(36*time.Second), 1); !d.Allowed {
		t.Fatalf("one unit refilled: %+v", d)
	}
	if d := l.AllowN("fresh", t0, 1000); !d.Allowed || d.Remaining != 0 {
		t.Fatalf("an event above the budget on a fresh key: %+v", d)
	}
	if d := l.AllowN("fresh", t0.Add(time.Minute), 1000); d.Allowed {
		t.Fatalf("a second one a minute later: %+v", d)
	}
}
