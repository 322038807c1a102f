package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Idempotency holds idempotency records.
type Idempotency interface {
	// PutIdempotency stores r durably, replacing the record of the same
	// agent, route and key.
	PutIdempotency(ctx context.Context, r *cairn.IdempotencyRecord) error

	// Idempotency returns the record of the agent, route and key, or
	// ENOTFOUND when there is none or it expired at now.
	Idempotency(ctx context.Context, agentID, route, key string, now time.Time) (*cairn.IdempotencyRecord, error)

	// DeleteExpiredIdempotency removes up to limit records whose expiry is
	// at or before now and returns how many it removed.
	DeleteExpiredIdempotency(ctx context.Context, now time.Time, limit int) (int, error)
}
