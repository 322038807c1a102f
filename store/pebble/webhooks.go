package pebble

import (
	"context"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cockroachdb/pebble/v2"
)

// Webhook keys, inside prefixHook:
//
//	hook/e/<devID><endpointID>               WebhookEndpoint (JSON)
//	hook/d/<devID><endpointID><deliveryID>   WebhookDelivery (JSON); ids are UUIDv7, so by time
//	hook/i/<deliveryID>                      the endpoint id of the delivery
//	hook/u/<endpointID><eventID>             the delivery id of the event for the endpoint
//	hook/q/<next attempt BE ns><deliveryID>  empty: the pending deliveries by due time
//
// and, beside the alerts (watch.go), watch/o/<alertID>: an alert not fanned
// out to its webhooks yet (WatchAlert, JSON).
const (
	hookEndpoint = prefixHook + "e/"
	hookDelivery = prefixHook + "d/"
	hookByID     = prefixHook + "i/"
	hookUnique   = prefixHook + "u/"
	hookQueue    = prefixHook + "q/"
	watchOutbox  = prefixWatch + "o/"
)

var _ store.Webhooks = (*DB)(nil)

func hookQueueKey(at time.Time, id string) []byte {
	return appendComponent(binary.BigEndian.AppendUint64([]byte(hookQueue), uint64(at.UnixNano())), id)
}

func endpointNotFound(id string) error {
	return cairn.Errorf(cairn.ENOTFOUND, "Webhook endpoint not found.").With("webhookId", id)
}

// CreateEndpoint stores the endpoint.
func (db *DB) CreateEndpoint(ctx context.Context, e *cairn.WebhookEndpoint) error {
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, key(hookEndpoint, e.DeveloperID, e.ID), e); err != nil {
		return err
	}
	return db.commit(b)
}

// Endpoint reads the developer's endpoint.
func (db *DB) Endpoint(ctx context.Context, developerID, id string) (*cairn.WebhookEndpoint, error) {
	var e cairn.WebhookEndpoint
	if ok, err := db.getJSON(key(hookEndpoint, developerID, id), &e); err != nil || !ok {
		return nil, cmpErr(err, endpointNotFound(id))
	}
	return &e, nil
}

// ListEndpoints scans the developer's endpoints from afterID.
func (db *DB) ListEndpoints(ctx context.Context, developerID, afterID string, limit int) ([]cairn.WebhookEndpoint, error) {
	var after []byte
	if afterID != "" {
		after = key(hookEndpoint, developerID, afterID)
	}
	return scanAfter[cairn.WebhookEndpoint](ctx, db, key(hookEndpoint, developerID), after, limit)
}

// DeleteEndpoint deletes the endpoint and its deliveries (and their
// queue entries) in one synced batch.
func (db *DB) DeleteEndpoint(ctx context.Context, developerID, id string) error {
	db.hookMu.Lock()
	defer db.hookMu.Unlock()
	if _, err := db.Endpoint(ctx, developerID, id); err != nil {
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	prefix := key(hookDelivery, developerID, id)
	if err := db.scanJSON(ctx, prefix, func(val []byte) error {
		var d cairn.WebhookDelivery
		if err := json.Unmarshal(val, &d); err != nil {
			return err
		}
		_ = b.Delete(key(hookByID, d.ID), nil)
		_ = b.Delete(key(hookUnique, id, d.EventID), nil)
		return b.Delete(hookQueueKey(d.NextAttemptAt, d.ID), nil)
	}); err != nil {
		return err
	}
	_ = b.DeleteRange(prefix, prefixEnd(prefix), nil)
	_ = b.Delete(key(hookEndpoint, developerID, id), nil)
	return db.commit(b)
}

// UpdateEndpoint runs fn on the endpoint under the delivery lock.
func (db *DB) UpdateEndpoint(ctx context.Context, developerID, id string, fn func(*cairn.WebhookEndpoint) error) (*cairn.WebhookEndpoint, error) {
	db.hookMu.Lock()
	defer db.hookMu.Unlock()
	e, err := db.Endpoint(ctx, developerID, id)
	if err != nil {
		return nil, err
	}
	if err := fn(e); err != nil {
		return nil, err
	}
	e.ID, e.DeveloperID = id, developerID
	b := db.db.NewBatch()
	defer b.Close()
	if err := setJSON(b, key(hookEndpoint, developerID, id), e); err != nil {
		return nil, err
	}
	return e, db.commit(b)
}

// SubscribedEndpoints scans the endpoints of the developer (or of all).
func (db *DB) SubscribedEndpoints(ctx context.Context, developerID, event string) ([]cairn.WebhookEndpoint, error) {
	prefix := []byte(hookEndpoint)
	if developerID != "" {
		prefix = key(hookEndpoint, developerID)
	}
	var out []cairn.WebhookEndpoint
	err := db.scanJSON(ctx, prefix, func(val []byte) error {
		var e cairn.WebhookEndpoint
		if err := json.Unmarshal(val, &e); err != nil {
			return err
		}
		if !e.Disabled && e.Subscribes(event) {
			out = append(out, e)
		}
		return nil
	})
	return out, err
}

// EnqueueDeliveries stores the deliveries of new (endpoint, event) pairs.
func (db *DB) EnqueueDeliveries(ctx context.Context, ds []cairn.WebhookDelivery) error {
	return db.FanOutAlerts(ctx, nil, ds)
}

// FanOutAlerts stages the new deliveries and drops the alerts' outbox
// entries in one synced batch.
func (db *DB) FanOutAlerts(ctx context.Context, alertIDs []string, ds []cairn.WebhookDelivery) error {
	db.hookMu.Lock()
	defer db.hookMu.Unlock()
	b := db.db.NewBatch()
	defer b.Close()
	seen := map[string]bool{}
	for i := range ds {
		d := &ds[i]
		uk := key(hookUnique, d.EndpointID, d.EventID)
		if ok, err := db.has(uk); err != nil {
			return err
		} else if ok || seen[string(uk)] {
			continue
		}
		seen[string(uk)] = true
		if ok, err := db.has(key(hookEndpoint, d.DeveloperID, d.EndpointID)); err != nil || !ok {
			continue // deleted since
		}
		if err := setJSON(b, key(hookDelivery, d.DeveloperID, d.EndpointID, d.ID), d); err != nil {
			return err
		}
		_ = b.Set(uk, []byte(d.ID), nil)
		_ = b.Set(key(hookByID, d.ID), []byte(d.DeveloperID+"\x00"+d.EndpointID), nil)
		_ = b.Set(hookQueueKey(d.NextAttemptAt, d.ID), nil, nil)
	}
	for _, id := range alertIDs {
		_ = b.Delete(key(watchOutbox, id), nil)
	}
	return db.commit(b)
}

// UnfannedAlerts scans the outbox.
func (db *DB) UnfannedAlerts(ctx context.Context, limit int) ([]cairn.WatchAlert, error) {
	return scanAfter[cairn.WatchAlert](ctx, db, []byte(watchOutbox), nil, limit)
}

// LeaseDeliveries moves the due deliveries' queue entries to until.
func (db *DB) LeaseDeliveries(ctx context.Context, now, until time.Time, limit int) ([]cairn.WebhookDelivery, error) {
	db.hookMu.Lock()
	defer db.hookMu.Unlock()
	it, err := db.db.NewIter(&pebble.IterOptions{LowerBound: []byte(hookQueue), UpperBound: hookQueueKey(now.Add(1), "")})
	if err != nil {
		return nil, fmt.Errorf("pebble: iterate deliveries: %w", err)
	}
	defer it.Close()
	b := db.db.NewBatch()
	defer b.Close()
	var out []cairn.WebhookDelivery
	for ok := it.First(); ok && len(out) < limit; ok = it.Next() {
		k := it.Key()
		id, _, err := readComponent(k[len(hookQueue)+8:])
		if err != nil {
			return nil, err
		}
		d, err := db.deliveryByID(id)
		_ = b.Delete(append([]byte(nil), k...), nil)
		if err != nil || d.Status != cairn.DeliveryPending {
			continue // a queue entry left behind
		}
		d.NextAttemptAt = until
		if err := db.stageDelivery(b, d); err != nil {
			return nil, err
		}
		out = append(out, *d)
	}
	if err := it.Error(); err != nil {
		return nil, err
	}
	return out, db.commit(b)
}

// stageDelivery stages d and, when pending, its queue entry.
func (db *DB) stageDelivery(b *pebble.Batch, d *cairn.WebhookDelivery) error {
	if d.Status == cairn.DeliveryPending {
		_ = b.Set(hookQueueKey(d.NextAttemptAt, d.ID), nil, nil)
	}
	return setJSON(b, key(hookDelivery, d.DeveloperID, d.EndpointID, d.ID), d)
}

// deliveryByID reads a delivery through its locator.
func (db *DB) deliveryByID(id string) (*cairn.WebhookDelivery, error) {
	loc, err := db.getBytes(key(hookByID, id))
	if err != nil || loc == nil {
		return nil, cmpErr(err, cairn.Errorf(cairn.ENOTFOUND, "Delivery not found.").With("deliveryId", id))
	}
	dev, ep, _ := cutZero(string(loc))
	var d cairn.WebhookDelivery
	if ok, err := db.getJSON(key(hookDelivery, dev, ep, id), &d); err != nil || !ok {
		return nil, cmpErr(err, cairn.Errorf(cairn.ENOTFOUND, "Delivery not found.").With("deliveryId", id))
	}
	return &d, nil
}

func cutZero(s string) (string, string, bool) {
	for i := 0; i < len(s); i++ {
		if s[i] == 0 {
			return s[:i], s[i+1:], true
		}
	}
	return s, "", false
}

// UpdateDelivery replaces the delivery and its queue entry.
// The lock is released once the batch is applied, before its sync, so
// that the attempts recorded together share one log sync.
func (db *DB) UpdateDelivery(ctx context.Context, d *cairn.WebhookDelivery) error {
	db.hookMu.Lock()
	old, err := db.deliveryByID(d.ID)
	if err != nil {
		db.hookMu.Unlock()
		return err
	}
	b := db.db.NewBatch()
	defer b.Close()
	_ = b.Delete(hookQueueKey(old.NextAttemptAt, d.ID), nil)
	if err := db.stageDelivery(b, d); err != nil {
		db.hookMu.Unlock()
		return err
	}
	return db.commitUnlock(b, db.hookMu.Unlock)
}

// Delivery reads the developer's delivery.
func (db *DB) Delivery(ctx context.Context, developerID, id string) (*cairn.WebhookDelivery, error) {
	d, err := db.deliveryByID(id)
	if err == nil && d.DeveloperID != developerID {
		err = cairn.Errorf(cairn.ENOTFOUND, "Delivery not found.").With("deliveryId", id)
	}
	if err != nil {
		return nil, err
	}
	return d, nil
}

// ListDeliveries scans the endpoint's deliveries backwards from beforeID.
func (db *DB) ListDeliveries(ctx context.Context, developerID, endpointID, beforeID string, limit int) ([]cairn.WebhookDelivery, error) {
	if _, err := db.Endpoint(ctx, developerID, endpointID); err != nil {
		return nil, err
	}
	lower, upper := pageBounds(key(hookDelivery, developerID, endpointID), beforeID)
	return lastFirst[cairn.WebhookDelivery](ctx, db, lower, upper, limit, nil, nil)
}
