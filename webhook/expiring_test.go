package webhook_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/webhook"
)

// TestMemoryExpiringOncePerEvent: two instances sweeping one store, each
// finding the memory that enters the alert window, store one delivery per
// endpoint; a memory outside the window or of another account has none.
func TestMemoryExpiringOncePerEvent(t *testing.T) {
	ctx := context.Background()
	f := newFixture(t, true)
	for _, a := range []cairn.Agent{{ID: "a1", DeveloperID: "d1", KeyHash: []byte("k1")}, {ID: "a2", DeveloperID: "d2", KeyHash: []byte("k2")}} {
		if _, err := f.db.EnsureDeveloper(ctx, a.DeveloperID); err != nil {
			t.Fatal(err)
		}
		if err := f.db.CreateAgent(ctx, &a); err != nil {
			t.Fatal(err)
		}
	}
	e, err := f.svc.Create(ctx, "d1", "http://127.0.0.1:1/hook", []string{cairn.EventMemoryExpiring})
	if err != nil {
		t.Fatal(err)
	}
	now := f.clock.Now()
	for i, m := range []cairn.Memory{{AgentID: "a1", Key: "in", ExpiresAt: now.Add(time.Hour)},
		{AgentID: "a1", Key: "out", ExpiresAt: now.Add(25 * time.Hour)}, {AgentID: "a2", Key: "other", ExpiresAt: now.Add(time.Hour)}} {
		m.ID, m.Type, m.Visibility, m.CreatedAt, m.UpdatedAt = cairn.NewID(), "semantic", "private", now, now
		v := &cairn.MemoryVersion{ID: m.ID, Version: 1, BlobName: "b" + string(rune('0'+i)), CreatedAt: now}
		if err := f.db.CreateMemoryVersion(ctx, &m, v, nil, nil); err != nil {
			t.Fatal(err)
		}
	}
	other := &webhook.Service{Store: f.db, Config: f.svc.Config, Clock: f.clock, Expiring: &webhook.Expiring{Memories: f.db, Agents: f.db}}
	f.svc.Expiring = &webhook.Expiring{Memories: f.db, Agents: f.db}
	// Each instance offers the event once (the store keeps one), then
	// skips it.
	for i, s := range []*webhook.Service{f.svc, other, f.svc} {
		if n, err := s.SweepExpiring(ctx, now); err != nil || n != min(1, 2-i) {
			t.Fatalf("sweep %d offered %d, %v", i, n, err)
		}
	}
	ds, err := f.db.ListDeliveries(ctx, "d1", e.ID, "", 10)
	if err != nil || len(ds) != 1 || ds[0].Type != cairn.EventMemoryExpiring {
		t.Fatalf("deliveries after three sweeps on two instances: %+v, %v", ds, err)
	}
}
