package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// RateLimits holds the counters of the request limits that must survive a
// restart (registrations per client network, key rotation attempts): a
// limit kept in memory would open afresh at every restart, and a free
// account is worth its starter credits.
type RateLimits interface {
	// TakeRate counts one event of key at now against limit events per
	// period, with bursts up to limit (GCRA: the store keeps one
	// theoretical arrival time per key, ratelimit.GCRA computes it). A
	// denied event is not counted.
	// Calls for one key are serialized, also across processes sharing the
	// store. limit and period must be positive (EINVALID).
	TakeRate(ctx context.Context, key string, limit int, period time.Duration, now time.Time) (cairn.RateTake, error)

	// DeleteRatesBefore removes up to n counters whose quota was whole
	// again at t (their arrival time is not after t) and returns how many
	// it removed.
	DeleteRatesBefore(ctx context.Context, t time.Time, n int) (int, error)
}
