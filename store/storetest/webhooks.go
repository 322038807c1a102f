package storetest

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

// RunWebhookTests checks a store.Webhooks implementation, with the outbox
// of alerts a list version's commit fills; open returns a fresh, empty
// store for each subtest.
func RunWebhookTests(t *testing.T, open func(t *testing.T) WatchStore) {
	ctx := context.Background()
	at := time.Date(2026, 1, 2, 3, 4, 5, 0, time.UTC)
	endpoint := func(t *testing.T, s WatchStore, dev string, events ...string) *cairn.WebhookEndpoint {
		t.Helper()
		e := &cairn.WebhookEndpoint{ID: cairn.NewID(), DeveloperID: dev, URL: "https://example.com/h", Events: events, Secret: "whsec_x", CreatedAt: at}
		if err := s.CreateEndpoint(ctx, e); err != nil {
			t.Fatal(err)
		}
		return e
	}
	delivery := func(e *cairn.WebhookEndpoint, event string, due time.Time) cairn.WebhookDelivery {
		return cairn.WebhookDelivery{ID: cairn.NewID(), DeveloperID: e.DeveloperID, EndpointID: e.ID, EventID: event, Type: cairn.EventListVersion,
			Body: []byte(`{"type":"list.version"}`), Status: cairn.DeliveryPending, NextAttemptAt: due, CreatedAt: at}
	}
	t.Run("Endpoints", func(t *testing.T) {
		s := open(t)
		e := endpoint(t, s, "d1", cairn.EventWatchlistHit)
		endpoint(t, s, "d2", cairn.EventWatchlistHit, cairn.EventListVersion)
		if _, err := s.Endpoint(ctx, "d2", e.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another account's endpoint: %v", err)
		}
		if es, err := s.SubscribedEndpoints(ctx, "", cairn.EventListVersion); err != nil || len(es) != 1 || es[0].DeveloperID != "d2" {
			t.Fatalf("subscribed to list.version: %+v %v", es, err)
		}
		if _, err := s.UpdateEndpoint(ctx, "d1", e.ID, func(e *cairn.WebhookEndpoint) error { e.Disabled, e.Reason = true, "failing"; return nil }); err != nil {
			t.Fatal(err)
		}
		if es, _ := s.SubscribedEndpoints(ctx, "d1", cairn.EventWatchlistHit); len(es) != 0 {
			t.Fatalf("a disabled endpoint is subscribed: %+v", es)
		}
		if es, err := s.ListEndpoints(ctx, "d1", "", 10); err != nil || len(es) != 1 || es[0].Reason != "failing" {
			t.Fatalf("list %+v %v", es, err)
		}
		if err := s.DeleteEndpoint(ctx, "d2", e.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another account's delete: %v", err)
		}
	})
	t.Run("Deliveries", func(t *testing.T) {
		s := open(t)
		e := endpoint(t, s, "d1", cairn.EventListVersion)
		d := delivery(e, "v1", at)
		if err := s.EnqueueDeliveries(ctx, []cairn.WebhookDelivery{d, delivery(e, "v1", at)}); err != nil {
			t.Fatal(err)
		}
		if err := s.EnqueueDeliveries(ctx, []cairn.WebhookDelivery{delivery(e, "v1", at)}); err != nil {
			t.Fatal(err)
		}
		if ds, err := s.ListDeliveries(ctx, "d1", e.ID, "", 10); err != nil || len(ds) != 1 || ds[0].ID != d.ID {
			t.Fatalf("one event enqueued thrice: %+v %v", ds, err)
		}
		if ds, _ := s.LeaseDeliveries(ctx, at.Add(-time.Second), at.Add(time.Minute), 10); len(ds) != 0 {
			t.Fatalf("leased before due: %+v", ds)
		}
		ds, err := s.LeaseDeliveries(ctx, at, at.Add(time.Minute), 10)
		if err != nil || len(ds) != 1 || !ds[0].NextAttemptAt.Equal(at.Add(time.Minute)) {
			t.Fatalf("lease %+v %v", ds, err)
		}
		if again, _ := s.LeaseDeliveries(ctx, at.Add(time.Second), at.Add(time.Hour), 10); len(again) != 0 {
			t.Fatalf("leased twice: %+v", again)
		}
		// The lease runs out: due again (a sender that died).
		if again, _ := s.LeaseDeliveries(ctx, at.Add(time.Minute), at.Add(2*time.Minute), 10); len(again) != 1 {
			t.Fatalf("not leased after the lease ran out: %+v", again)
		}
		got := ds[0]
		got.Status, got.Attempts, got.LastStatus = cairn.DeliveryDelivered, 1, 200
		if err := s.UpdateDelivery(ctx, &got); err != nil {
			t.Fatal(err)
		}
		if again, _ := s.LeaseDeliveries(ctx, at.Add(time.Hour), at.Add(2*time.Hour), 10); len(again) != 0 {
			t.Fatalf("a delivered delivery leased: %+v", again)
		}
		if r, err := s.Delivery(ctx, "d1", d.ID); err != nil || r.Status != cairn.DeliveryDelivered || r.LastStatus != 200 {
			t.Fatalf("delivery %+v %v", r, err)
		}
		if _, err := s.Delivery(ctx, "d2", d.ID); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("another account's delivery: %v", err)
		}
		if err := s.DeleteEndpoint(ctx, "d1", e.ID); err != nil {
			t.Fatal(err)
		}
		if err := s.UpdateDelivery(ctx, &got); !cairn.IsCode(err, cairn.ENOTFOUND) {
			t.Fatalf("update of a deleted endpoint's delivery: %v", err)
		}
	})
	t.Run("AlertOutbox", func(t *testing.T) {
		s := open(t)
		a := "0x00000000000000000000000000000000000000a1"
		w := &cairn.Watchlist{ID: cairn.NewID(), DeveloperID: "d1", Name: "w"}
		if err := s.CreateWatchlist(ctx, w, []cairn.WatchedAddress{{Family: "evm", Address: a, Input: a, Chain: "ethereum"}}, nil); err != nil {
			t.Fatal(err)
		}
		e := cairn.ListEntry{Family: "evm", Address: a, Source: "gov_sdn", EntityID: "1"}
		if err := s.CommitListVersion(ctx, cairn.ListVersion{Version: 1, BuiltAt: at}, []cairn.ListEntry{e}, nil); err != nil {
			t.Fatal(err)
		}
		out, err := s.UnfannedAlerts(ctx, 10)
		if err != nil || len(out) != 1 || out[0].WatchlistID != w.ID {
			t.Fatalf("outbox %+v %v", out, err)
		}
		ep := endpoint(t, s, "d1", cairn.EventWatchlistHit)
		if err := s.FanOutAlerts(ctx, []string{out[0].ID}, []cairn.WebhookDelivery{delivery(ep, out[0].ID, at)}); err != nil {
			t.Fatal(err)
		}
		if out, _ := s.UnfannedAlerts(ctx, 10); len(out) != 0 {
			t.Fatalf("outbox after the fan-out: %+v", out)
		}
		if ds, _ := s.ListDeliveries(ctx, "d1", ep.ID, "", 10); len(ds) != 1 {
			t.Fatalf("deliveries of the fan-out: %+v", ds)
		}
	})
}
