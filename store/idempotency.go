package store

import (
	"context"
	"time"
)

// IdempotencyRecord is the answer a create that carried an Idempotency-Key
// gave, kept so that a retry with the same key and body gets it again
// instead of writing (and paying) twice, even after a restart. It is scoped
// to the agent and the route.
type IdempotencyRecord struct {
	AgentID     string    `json:"agentId"`
	Route       string    `json:"route"`
	Key         string    `json:"key"`
	BodyHash    []byte    `json:"bodyHash"` // SHA-256 of the request body
	Status      int       `json:"status"`
	ContentType string    `json:"contentType"`
	ETag        string    `json:"etag,omitempty"`
	Body        []byte    `json:"body"`
	CreatedAt   time.Time `json:"createdAt"`
	ExpiresAt   time.Time `json:"expiresAt"`
}

// Idempotency holds idempotency records.
type Idempotency interface {
	// PutIdempotency stores r durably, replacing the record of the same
	// agent, route and key.
	PutIdempotency(ctx context.Context, r *IdempotencyRecord) error

	// Idempotency returns the record of the agent, route and key, or
	// ENOTFOUND when there is none or it expired at now.
	Idempotency(ctx context.Context, agentID, route, key string, now time.Time) (*IdempotencyRecord, error)

	// DeleteExpiredIdempotency removes up to limit records whose expiry is
	// at or before now and returns how many it removed.
	DeleteExpiredIdempotency(ctx context.Context, now time.Time, limit int) (int, error)
}
