package store

import (
	"context"
	"time"

	"github.com/cairn-dev/cairn"
)

// Webhooks holds developer accounts' webhook endpoints and their
// deliveries. Deliveries are persisted before any attempt and leased to
// one sender at a time, so that a crash loses none (a lease that runs out
// makes the delivery due again: at least once) and instances sharing the
// store do not send one together.
type Webhooks interface {
	// CreateEndpoint stores a new endpoint.
	CreateEndpoint(ctx context.Context, e *cairn.WebhookEndpoint) error
	// Endpoint returns the developer's endpoint (ENOTFOUND when unknown or
	// another account's).
	Endpoint(ctx context.Context, developerID, id string) (*cairn.WebhookEndpoint, error)
	// ListEndpoints returns up to limit of the developer's endpoints with
	// id above afterID, oldest first.
	ListEndpoints(ctx context.Context, developerID, afterID string, limit int) ([]cairn.WebhookEndpoint, error)
	// DeleteEndpoint removes the endpoint and its deliveries.
	DeleteEndpoint(ctx context.Context, developerID, id string) error
	// UpdateEndpoint runs fn on the endpoint inside the backend's
	// transaction and stores the result when fn returns nil.
	UpdateEndpoint(ctx context.Context, developerID, id string, fn func(*cairn.WebhookEndpoint) error) (*cairn.WebhookEndpoint, error)
	// SubscribedEndpoints returns the enabled endpoints subscribed to the
	// event: the developer's, or every account's when developerID is "".
	SubscribedEndpoints(ctx context.Context, developerID, event string) ([]cairn.WebhookEndpoint, error)

	// EnqueueDeliveries stores the deliveries whose id is not stored yet
	// (ids are made from the event and the endpoint, so that instances
	// enqueueing one event store it once).
	EnqueueDeliveries(ctx context.Context, ds []cairn.WebhookDelivery) error
	// FanOutAlerts enqueues the deliveries and marks the alerts as fanned
	// out, in one commit.
	FanOutAlerts(ctx context.Context, alertIDs []string, ds []cairn.WebhookDelivery) error
	// UnfannedAlerts returns up to limit alerts no FanOutAlerts has
	// marked, oldest first.
	UnfannedAlerts(ctx context.Context, limit int) ([]cairn.WatchAlert, error)
	// LeaseDeliveries returns up to limit pending deliveries due at now,
	// oldest due first, and moves their NextAttemptAt to until, so that
	// no other caller leases them before then.
	LeaseDeliveries(ctx context.Context, now, until time.Time, limit int) ([]cairn.WebhookDelivery, error)
	// UpdateDelivery stores the delivery's state after an attempt
	// (ENOTFOUND when its endpoint was deleted since).
	UpdateDelivery(ctx context.Context, d *cairn.WebhookDelivery) error
	// Delivery returns the developer's delivery (ENOTFOUND when unknown
	// or another account's).
	Delivery(ctx context.Context, developerID, id string) (*cairn.WebhookDelivery, error)
	// ListDeliveries returns up to limit deliveries of the endpoint with
	// id below beforeID ("": from the newest), newest first.
	ListDeliveries(ctx context.Context, developerID, endpointID, beforeID string, limit int) ([]cairn.WebhookDelivery, error)
}
