package postgres

import (
	"context"
	"encoding/json"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/jackc/pgx/v5"
)

var _ store.Webhooks = (*DB)(nil)

func endpointNotFound(id string) error {
	return cairn.Errorf(cairn.ENOTFOUND, "Webhook endpoint not found.").With("webhookId", id)
}

func deliveryNotFound(id string) error {
	return cairn.Errorf(cairn.ENOTFOUND, "Delivery not found.").With("deliveryId", id)
}

// CreateEndpoint inserts the endpoint.
func (db *DB) CreateEndpoint(ctx context.Context, e *cairn.WebhookEndpoint) error {
	doc, err := json.Marshal(e)
	if err != nil {
		return err
	}
	_, err = db.pool.Exec(ctx, "INSERT INTO webhook_endpoints (developer_id, id, record) VALUES ($1, $2, $3)", e.DeveloperID, e.ID, doc)
	return mapErr(err, "insert webhook endpoint")
}

// Endpoint reads the developer's endpoint.
func (db *DB) Endpoint(ctx context.Context, developerID, id string) (*cairn.WebhookEndpoint, error) {
	return endpointIn(ctx, db.pool, developerID, id, "")
}

func endpointIn(ctx context.Context, q rowsQuerier, developerID, id, lock string) (*cairn.WebhookEndpoint, error) {
	return getOwned[cairn.WebhookEndpoint](ctx, q, "webhook_endpoints", "webhook endpoint", developerID, id, lock, endpointNotFound)
}

// ListEndpoints reads the developer's endpoints by id.
func (db *DB) ListEndpoints(ctx context.Context, developerID, afterID string, limit int) ([]cairn.WebhookEndpoint, error) {
	return listOwned[cairn.WebhookEndpoint](ctx, db, "webhook_endpoints", "webhook endpoint", developerID, afterID, limit)
}

// DeleteEndpoint deletes the endpoint; its deliveries go with it.
func (db *DB) DeleteEndpoint(ctx context.Context, developerID, id string) error {
	return deleteOwned(ctx, db, "webhook_endpoints", "webhook endpoint", developerID, id, endpointNotFound)
}

// UpdateEndpoint runs fn on the endpoint under its row lock.
func (db *DB) UpdateEndpoint(ctx context.Context, developerID, id string, fn func(*cairn.WebhookEndpoint) error) (*cairn.WebhookEndpoint, error) {
	var out *cairn.WebhookEndpoint
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		e, err := endpointIn(ctx, tx, developerID, id, " FOR UPDATE")
		if err != nil {
			return err
		}
		if err := fn(e); err != nil {
			return err
		}
		e.ID, e.DeveloperID = id, developerID
		doc, err := json.Marshal(e)
		if err != nil {
			return err
		}
		_, err = tx.Exec(ctx, "UPDATE webhook_endpoints SET record = $3 WHERE developer_id = $1 AND id = $2", developerID, id, doc)
		out = e
		return mapErr(err, "update webhook endpoint")
	})
	return out, err
}

// SubscribedEndpoints reads the enabled endpoints subscribed to event.
func (db *DB) SubscribedEndpoints(ctx context.Context, developerID, event string) ([]cairn.WebhookEndpoint, error) {
	es, err := queryJSON[cairn.WebhookEndpoint](ctx, db.pool, "webhook endpoint", `SELECT record FROM webhook_endpoints
		WHERE ($1 = '' OR developer_id = $1) AND record->'events' ? $2 AND NOT COALESCE((record->>'disabled')::boolean, false)`,
		developerID, event)
	return es, err
}

// EnqueueDeliveries inserts the deliveries of new (endpoint, event) pairs.
func (db *DB) EnqueueDeliveries(ctx context.Context, ds []cairn.WebhookDelivery) error {
	return db.FanOutAlerts(ctx, nil, ds)
}

// FanOutAlerts inserts the deliveries and marks the alerts fanned out in
// one transaction.
func (db *DB) FanOutAlerts(ctx context.Context, alertIDs []string, ds []cairn.WebhookDelivery) error {
	b := &pgx.Batch{}
	for i := range ds {
		d := &ds[i]
		doc, err := json.Marshal(d)
		if err != nil {
			return err
		}
		b.Queue(`INSERT INTO webhook_deliveries (developer_id, endpoint_id, id, event_id, pending, next_ns, record)
			SELECT $1, $2, $3, $4, true, $5, $6 WHERE EXISTS (SELECT 1 FROM webhook_endpoints WHERE id = $2)
			ON CONFLICT DO NOTHING`, d.DeveloperID, d.EndpointID, d.ID, d.EventID, d.NextAttemptAt.UnixNano(), doc)
	}
	if len(alertIDs) > 0 {
		b.Queue("UPDATE watch_alerts SET fanned = true WHERE id = ANY($1)", alertIDs)
	}
	if b.Len() == 0 {
		return nil
	}
	return db.inTx(ctx, func(tx pgx.Tx) error {
		return mapErr(tx.SendBatch(ctx, b).Close(), "enqueue deliveries")
	})
}

// UnfannedAlerts reads the alerts not fanned out, oldest first.
func (db *DB) UnfannedAlerts(ctx context.Context, limit int) ([]cairn.WatchAlert, error) {
	return queryJSON[cairn.WatchAlert](ctx, db.pool, "alert", "SELECT record FROM watch_alerts WHERE NOT fanned ORDER BY id LIMIT $1", limit)
}

// LeaseDeliveries moves the due deliveries' next attempt to until, those
// another transaction holds skipped.
func (db *DB) LeaseDeliveries(ctx context.Context, now, until time.Time, limit int) ([]cairn.WebhookDelivery, error) {
	var out []cairn.WebhookDelivery
	err := db.inTx(ctx, func(tx pgx.Tx) error {
		ds, err := queryJSON[cairn.WebhookDelivery](ctx, tx, "delivery", `SELECT record FROM webhook_deliveries
			WHERE pending AND next_ns <= $1 ORDER BY next_ns LIMIT $2 FOR UPDATE SKIP LOCKED`, now.UnixNano(), limit)
		if err != nil {
			return err
		}
		b := &pgx.Batch{}
		for i := range ds {
			ds[i].NextAttemptAt = until
			queueDelivery(b, &ds[i])
		}
		out = ds
		if b.Len() == 0 {
			return nil
		}
		return mapErr(tx.SendBatch(ctx, b).Close(), "lease deliveries")
	})
	return out, err
}

// queueDelivery queues the update of d's row.
func queueDelivery(b *pgx.Batch, d *cairn.WebhookDelivery) {
	doc, _ := json.Marshal(d)
	b.Queue("UPDATE webhook_deliveries SET pending = $2, next_ns = $3, record = $4 WHERE id = $1",
		d.ID, d.Status == cairn.DeliveryPending, d.NextAttemptAt.UnixNano(), doc)
}

// UpdateDelivery stores the delivery's state.
func (db *DB) UpdateDelivery(ctx context.Context, d *cairn.WebhookDelivery) error {
	doc, err := json.Marshal(d)
	if err != nil {
		return err
	}
	tag, err := db.pool.Exec(ctx, "UPDATE webhook_deliveries SET pending = $2, next_ns = $3, record = $4 WHERE id = $1",
		d.ID, d.Status == cairn.DeliveryPending, d.NextAttemptAt.UnixNano(), doc)
	if err != nil {
		return mapErr(err, "update delivery")
	}
	if tag.RowsAffected() == 0 {
		return deliveryNotFound(d.ID)
	}
	return nil
}

// Delivery reads the developer's delivery.
func (db *DB) Delivery(ctx context.Context, developerID, id string) (*cairn.WebhookDelivery, error) {
	return getOwned[cairn.WebhookDelivery](ctx, db.pool, "webhook_deliveries", "delivery", developerID, id, "", deliveryNotFound)
}

// ListDeliveries reads the endpoint's deliveries, newest first.
func (db *DB) ListDeliveries(ctx context.Context, developerID, endpointID, beforeID string, limit int) ([]cairn.WebhookDelivery, error) {
	if _, err := db.Endpoint(ctx, developerID, endpointID); err != nil {
		return nil, err
	}
	q, args := newestFirst("SELECT record FROM webhook_deliveries WHERE developer_id = $1 AND endpoint_id = $2",
		[]any{developerID, endpointID}, "", "", beforeID, limit)
	return queryJSON[cairn.WebhookDelivery](ctx, db.pool, "delivery", q, args...)
}
