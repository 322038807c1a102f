package ttlcache

import (
	"testing"
	"time"
)

func TestCache(t *testing.T) {
	t0 := time.Date(2026, 1, 1, 0, 0, 0, 0, time.UTC)
	c := New[string, int](time.Second, 3)
	if _, ok, _ := c.Get("a", t0); ok {
		t.Fatal("hit in an empty cache")
	}
	_, _, e := c.Get("a", t0)
	c.Put("a", 1, e, t0)
	if v, ok, _ := c.Get("a", t0.Add(999*time.Millisecond)); !ok || v != 1 {
		t.Fatalf("Get within the TTL = %v, %v", v, ok)
	}
	if _, ok, _ := c.Get("a", t0.Add(time.Second)); ok {
		t.Fatal("hit once the TTL passed")
	}

	// A read that raced a change: its Put, with the epoch from before the
	// Drop, is ignored.
	_, _, stale := c.Get("b", t0)
	c.Drop(func(k string, _ int) bool { return k == "b" })
	c.Put("b", 2, stale, t0)
	if _, ok, _ := c.Get("b", t0); ok {
		t.Fatal("a Put older than a Drop was kept")
	}

	// Drop removes only what it selects.
	_, _, e = c.Get("x", t0)
	c.Put("x", 10, e, t0)
	c.Put("y", 20, e, t0)
	c.Drop(func(_ string, v int) bool { return v == 10 })
	if _, ok, _ := c.Get("x", t0); ok {
		t.Fatal("x survived its Drop")
	}
	if v, ok, _ := c.Get("y", t0); !ok || v != 20 {
		t.Fatalf("y = %v, %v after x's Drop", v, ok)
	}

	// Bounded: a full cache starts again.
	_, _, e = c.Get("", t0)
	for i, k := range []string{"p", "q", "r", "s"} {
		c.Put(k, i, e, t0)
	}
	if len(c.m) > 3 {
		t.Fatalf("%d entries, max 3", len(c.m))
	}
	if v, ok, _ := c.Get("s", t0); !ok || v != 3 {
		t.Fatal("the newest entry is missing")
	}
}

// TestLazy: the first call decides; a non-positive TTL means no cache, and
// dropping from no cache does nothing.
func TestLazy(t *testing.T) {
	var off Lazy[string, int]
	c := off.Of(0, 10)
	if c != nil || off.Of(time.Second, 10) != nil {
		t.Fatal("a cache made for a zero TTL, or by a later call")
	}
	c.Drop(nil) // must not panic
	var on Lazy[string, int]
	c = on.Of(time.Second, 10)
	if c == nil || on.Of(0, 10) != c {
		t.Fatal("the first call's cache is not kept")
	}
}
