// Package ttlcache is a small in-memory cache of values read from a store
// for a bounded time: the owner drops entries when it changes what they
// reflect, and an epoch keeps a read that raced such a change from putting
// the old value back. Changes made elsewhere (another instance sharing the
// store) are seen once an entry's time is up.
package ttlcache

import (
	"sync"
	"time"
)

// Cache maps keys to values read at most TTL ago. The zero value is not
// usable; use New. It is safe for concurrent use.
type Cache[K comparable, V any] struct {
	ttl time.Duration
	max int

	mu    sync.Mutex
	epoch uint64 // bumped by every Drop
	m     map[K]entry[V]
}

type entry[V any] struct {
	v     V
	until time.Time
}

// New returns a cache of entries kept for ttl, at most max of them (when
// full it starts again empty).
func New[K comparable, V any](ttl time.Duration, max int) *Cache[K, V] {
	return &Cache[K, V]{ttl: ttl, max: max, m: map[K]entry[V]{}}
}

// Get returns the value of k when it was put less than TTL before now, and
// the epoch a Put after a miss must pass.
func (c *Cache[K, V]) Get(k K, now time.Time) (v V, ok bool, epoch uint64) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if e, found := c.m[k]; found && now.Before(e.until) {
		return e.v, true, c.epoch
	}
	return v, false, c.epoch
}

// Put stores v, read from the store after a miss that returned epoch,
// unless a Drop happened since (the read may predate the change it
// reflected).
func (c *Cache[K, V]) Put(k K, v V, epoch uint64, now time.Time) {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.epoch != epoch {
		return
	}
	if len(c.m) >= c.max {
		c.m = map[K]entry[V]{}
	}
	c.m[k] = entry[V]{v: v, until: now.Add(c.ttl)}
}

// Drop removes the entries match selects (nil: every entry). Call it after
// the change is committed. Dropping from a nil cache does nothing.
func (c *Cache[K, V]) Drop(match func(K, V) bool) {
	if c == nil {
		return
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	c.epoch++
	for k, e := range c.m {
		if match == nil || match(k, e.v) {
			delete(c.m, k)
		}
	}
}

// Lazy holds a Cache made on its first use, for a service whose TTL is a
// field set after the service value is built. The zero value is ready.
type Lazy[K comparable, V any] struct {
	once sync.Once
	c    *Cache[K, V]
}

// Of returns the cache of entries kept for ttl, at most max of them, made
// by the first call; nil when that call's ttl is not positive (no cache).
func (l *Lazy[K, V]) Of(ttl time.Duration, max int) *Cache[K, V] {
	l.once.Do(func() {
		if ttl > 0 {
			l.c = New[K, V](ttl, max)
		}
	})
	return l.c
}
