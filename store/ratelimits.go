package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// RateLimits holds the counters of the request limits that must survive a
// restart (registrations per client network, key rotation attempts): a
// limit kept in memory would open afresh at every restart, and a free
// account is worth its starter credits. *pebble.DB and *postgres.DB
// implement it.
type RateLimits interface {
	// TakeRate counts one event of key at now against limit events per
	// period, with bursts up to limit (GCRA: the store keeps one
	// theoretical arrival time per key). A denied event is not counted.
	// Calls for one key are serialized, also across processes sharing the
	// store. limit and period must be positive (EINVALID).
	TakeRate(ctx context.Context, key string, limit int, period time.Duration, now time.Time) (cairn.RateTake, error)

	// DeleteRatesBefore removes up to n counters whose quota was whole
	// again at t (their arrival time is not after t) and returns how many
	// it removed.
	DeleteRatesBefore(ctx context.Context, t time.Time, n int) (int, error)
}

// GCRA applies one event at now to the theoretical arrival time tat (zero:
// none) of a limit of limit events per period. It returns the take and the
// new arrival time to store (tat unchanged when denied). Backends call it
// inside their transaction.
func GCRA(tat, now time.Time, limit int, period time.Duration) (cairn.RateTake, time.Time) {
	interval := period / time.Duration(limit)
	if tat.Before(now) {
		tat = now
	}
	next := tat.Add(interval)
	if next.Sub(now) > period {
		return cairn.RateTake{Reset: tat.Sub(now), RetryAfter: next.Add(-period).Sub(now)}, tat
	}
	used := next.Sub(now)
	return cairn.RateTake{Allowed: true, Remaining: int((period - used) / interval), Reset: used}, next
}
