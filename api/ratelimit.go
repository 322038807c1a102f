package api

import (
	"context"
	"hash/maphash"
	"math"
	"strconv"
	"sync"
	"time"
)

// limiter is a GCRA (generic cell rate algorithm) limiter: limit events per
// period per key, with bursts up to limit. It keeps one timestamp per key,
// in shards so that unrelated keys rarely contend. limit <= 0 disables it.
type limiter struct {
	limit    int
	period   time.Duration
	interval time.Duration // period / limit
	seed     maphash.Seed
	shards   [64]limiterShard
	// stored, when set, keeps the counters in the store instead of
	// memory, so that a restart does not reset them.
	stored RateStore
}

type limiterShard struct {
	mu    sync.Mutex
	tat   map[string]time.Time // theoretical arrival time per key
	calls int
}

type decision struct {
	allowed    bool
	limit      int
	remaining  int
	reset      time.Duration // until the full quota is back
	retryAfter time.Duration // when denied: until one more event is allowed
}

func newLimiter(limit int, period time.Duration) *limiter {
	l := &limiter{limit: limit, period: period, seed: maphash.MakeSeed()}
	if limit > 0 {
		l.interval = period / time.Duration(limit)
	}
	for i := range l.shards {
		l.shards[i].tat = make(map[string]time.Time)
	}
	return l
}

func (l *limiter) enabled() bool { return l.limit > 0 }

// persistent makes the limiter keep its counters in rl (nil: in memory).
func (l *limiter) persistent(rl RateStore) *limiter {
	l.stored = rl
	return l
}

// take records one event for key at now, in the store when the limiter
// is persistent, else in memory.
func (l *limiter) take(ctx context.Context, key string, now time.Time) (decision, error) {
	if l.stored == nil || !l.enabled() {
		return l.allow(key, now), nil
	}
	r, err := l.stored.TakeRate(ctx, key, l.limit, l.period, now)
	if err != nil {
		return decision{}, err
	}
	return decision{allowed: r.Allowed, limit: l.limit, remaining: r.Remaining, reset: r.Reset, retryAfter: r.RetryAfter}, nil
}

// allow records one event for key at now, unless that would exceed the
// limit.
func (l *limiter) allow(key string, now time.Time) decision {
	if !l.enabled() {
		return decision{allowed: true, limit: math.MaxInt32, remaining: math.MaxInt32}
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
	tat := sh.tat[key]
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(l.interval)
	if next.Sub(now) > l.period {
		return decision{
			limit:      l.limit,
			reset:      tat.Sub(now),
			retryAfter: next.Add(-l.period).Sub(now),
		}
	}
	sh.tat[key] = next
	used := next.Sub(now)
	return decision{
		allowed:   true,
		limit:     l.limit,
		remaining: int((l.period - used) / l.interval),
		reset:     used,
	}
}

// seconds rounds a duration up to whole seconds, at least 1 when positive.
func seconds(d time.Duration) string {
	if d <= 0 {
		return "0"
	}
	return strconv.FormatInt(int64(math.Ceil(d.Seconds())), 10)
}
