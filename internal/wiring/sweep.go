package wiring

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/blob"
	"github.com/cairn-dev/cairn/media"
	"github.com/cairn-dev/cairn/memory"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/webhook"
)

// Sweeper removes expired items of one kind; the service runs every
// sweeper each TTL sweep interval. Records go before blobs so that a
// record never points at a blob the sweep already removed. A local sweeper
// removes what only this instance holds (the data dir's blobs, with the fs
// blob store) and runs on every instance; the others sweep what the
// instances share (the store, an S3 bucket) and run on the leader.
type Sweeper struct {
	Name  string
	Sweep func(ctx context.Context, now time.Time) (int, error)
	Local bool
}

// Sweepers are the sweeps of the service over its stores, in the order
// they run: memory records, media records, blobs (local: localBlobs),
// idempotency records, settled marks, rate counters, and the blob scrub
// of a store that has one.
func Sweepers(core store.Store, blobs blob.Store, localBlobs bool, mem *memory.Service, med *media.Service) []Sweeper {
	sweepers := []Sweeper{
		{"memory", mem.Sweep, false},
		{"media", med.Sweep, false},
		{"blobs", blobs.DeleteExpired, localBlobs},
		// The expired idempotency records.
		{"idempotency", func(ctx context.Context, now time.Time) (int, error) {
			return sweepPaged(func(page int) (int, error) { return core.DeleteExpiredIdempotency(ctx, now, page) })
		}, false},
		// The settled marks older than the recovery window: recovery never
		// reads further back than billing.Lookback.
		{"settled marks", func(ctx context.Context, now time.Time) (int, error) {
			return sweepPaged(func(page int) (int, error) {
				return core.DeleteSettledBefore(ctx, now.Add(-2*billing.Lookback), page)
			})
		}, false},
		// The stored rate counters whose quota is whole again: a counter
		// that is gone means the same as one that is whole.
		{"rate counters", func(ctx context.Context, now time.Time) (int, error) {
			return sweepPaged(func(page int) (int, error) { return core.DeleteRatesBefore(ctx, now, page) })
		}, false},
	}
	// The background check of stored content against its digests (blob/fs
	// Scrub), a budget of bytes each time; it counts the damaged files.
	if sc, ok := blobs.(scrubber); ok {
		sweepers = append(sweepers, Sweeper{"blob scrub (damaged)", sc.Scrub, localBlobs})
	}
	return sweepers
}

// scrubber is a blob store that checks its stored content in the
// background (blob/fs).
type scrubber interface {
	Scrub(ctx context.Context, now time.Time) (int, error)
}

// ExpiringSweeper enqueues the memory.expiring webhooks of the memories
// entering the alert window; it runs on the leader after the sweeps of
// Sweepers, and the deliveries are stored once per (endpoint, memory,
// expiry) whichever instance finds them.
func ExpiringSweeper(hooks *webhook.Service) Sweeper {
	return Sweeper{"memory.expiring webhooks", hooks.SweepExpiring, false}
}

// sweepPage is how many records a sweep removes per store call.
const sweepPage = 1000

// sweepPaged calls del with sweepPage until it removes fewer than that,
// and returns how many it removed in all.
func sweepPaged(del func(page int) (int, error)) (int, error) {
	total := 0
	for {
		n, err := del(sweepPage)
		total += n
		if err != nil || n < sweepPage {
			return total, err
		}
	}
}
