package store

import (
	"context"
	"time"
)

// Settled records the charges whose request ended without a refund and
// without an effect that shows it ran (a 404 or a 409 on a priced write:
// the charge stands, spec 7). Start-up recovery of charges refunds a charge
// that has neither a refund, nor an effect in the audit log, nor a mark
// here: its request was cut short by a crash.
type Settled interface {
	// MarkSettled records durably that the charges with the ids stand.
	MarkSettled(ctx context.Context, chargeIDs []string, at time.Time) error

	// SettledSince calls fn with the id of every charge marked at or after
	// since, until fn returns false.
	SettledSince(ctx context.Context, since time.Time, fn func(chargeID string) bool) error

	// DeleteSettledBefore removes up to limit marks made before t and
	// returns how many it removed.
	DeleteSettledBefore(ctx context.Context, t time.Time, limit int) (int, error)
}
