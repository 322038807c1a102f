// Package ratelimit is the GCRA (generic cell rate algorithm) of the
// request limits, written once: GCRA applies one event to a theoretical
// arrival time, Limiter counts events per key in memory (sharded) or, for
// limits that must survive a restart or be shared between instances, in a
// Store (store.RateLimits, whose backends call GCRA inside their
// transaction and keep only the arrival times).
//
// It imports only the root package.
package ratelimit

import (
	"context"
	"hash/maphash"
	"math"
	"sync"
	"time"

	"github.com/cairn-dev/cairn"
)

// GCRA applies one event at now to the theoretical arrival time tat (zero:
// none) of a limit of limit events per period, with bursts up to limit.
// It returns the take and the new arrival time to keep (tat unchanged
// when denied). limit and period must be positive.
func GCRA(tat, now time.Time, limit int, period time.Duration) (cairn.RateTake, time.Time) {
	return GCRAN(tat, now, limit, period, 1)
}

// GCRAN is GCRA for an event of weight n (1 <= n <= limit): n units of
// the limit at once, such as the mebibytes of a download against a byte
// budget.
func GCRAN(tat, now time.Time, limit int, period time.Duration, n int) (cairn.RateTake, time.Time) {
	interval := period / time.Duration(limit)
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(time.Duration(n) * interval)
	if next.Sub(now) > period {
		return cairn.RateTake{Reset: tat.Sub(now), RetryAfter: next.Add(-period).Sub(now)}, tat
	}
	used := next.Sub(now)
	return cairn.RateTake{Allowed: true, Remaining: int((period - used) / interval), Reset: used}, next
}

// Store counts events against limits that must survive a restart
// (store.RateLimits).
type Store interface {
	TakeRate(ctx context.Context, key string, limit int, period time.Duration, now time.Time) (cairn.RateTake, error)
}

// Limiter is a GCRA limiter: Limit events per Period per key, with bursts
// up to Limit. In memory it keeps one arrival time per key, in shards so
// that unrelated keys rarely contend. Limit <= 0 disables it.
type Limiter struct {
	Limit  int
	Period time.Duration
	seed   maphash.Seed
	shards [64]shard
	// stored, when set, keeps the counters in the store instead of
	// memory, so that a restart does not reset them.
	stored Store
}

type shard struct {
	mu    sync.Mutex
	tat   map[string]time.Time // theoretical arrival time per key
	calls int
}

// New returns a limiter of limit events per period, in memory.
func New(limit int, period time.Duration) *Limiter {
	l := &Limiter{Limit: limit, Period: period, seed: maphash.MakeSeed()}
	for i := range l.shards {
		l.shards[i].tat = make(map[string]time.Time)
	}
	return l
}

// Enabled reports whether the limiter limits anything.
func (l *Limiter) Enabled() bool { return l.Limit > 0 }

// Stored makes the limiter keep its counters in s (nil: in memory).
func (l *Limiter) Stored(s Store) *Limiter {
	l.stored = s
	return l
}

// Take records one event for key at now, in the store when the limiter
// has one, else in memory.
func (l *Limiter) Take(ctx context.Context, key string, now time.Time) (cairn.RateTake, error) {
	if l.stored == nil || !l.Enabled() {
		return l.Allow(key, now), nil
	}
	return l.stored.TakeRate(ctx, key, l.Limit, l.Period, now)
}

// Allow records one event for key at now in memory, unless that would
// exceed the limit.
func (l *Limiter) Allow(key string, now time.Time) cairn.RateTake { return l.AllowN(key, now, 1) }

// AllowN records an event of weight n for key at now in memory, unless
// that would exceed the limit; a weight above the limit is counted as the
// whole limit (allowed only on a fresh key), so that one event larger
// than the budget is not refused forever.
func (l *Limiter) AllowN(key string, now time.Time, n int) cairn.RateTake {
	if !l.Enabled() {
		return cairn.RateTake{Allowed: true, Remaining: math.MaxInt32}
	}
	sh := &l.shards[maphash.String(l.seed, key)%uint64(len(l.shards))]
	sh.mu.Lock()
	defer sh.mu.Unlock()
	sh.calls++
	if sh.calls%4096 == 0 {
		for k, t := range sh.tat {
			if !t.After(now) {
				delete(sh.tat, k)
			}
		}
	}
	take, next := GCRAN(sh.tat[key], now, l.Limit, l.Period, min(max(n, 1), l.Limit))
	if take.Allowed {
		sh.tat[key] = next
	}
	return take
}
