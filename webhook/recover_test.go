package webhook_test

import (
	"context"
	"encoding/json"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
	"github.com/cairn-dev/cairn/webhook"
)

// TestRecoverAfterCrash: a list version, a credited deposit and a synced
// anchor are committed and the process dies before their events are
// enqueued; the next start (two instances, one starting twice) enqueues
// each event once to the endpoint that was there, none to an endpoint
// created since. On the embedded store and on PostgreSQL.
func TestRecoverAfterCrash(t *testing.T) {
	t.Run("pebble", func(t *testing.T) {
		db, err := pebble.Open("", pebble.Options{InMemory: true})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		recoverAfterCrash(t, db)
	})
	t.Run("postgres", func(t *testing.T) {
		url := pgtest.URL(t)
		db, err := postgres.Open(context.Background(), url, postgres.Options{Schema: pgtest.Schema(t, url)})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { _ = db.Close() })
		recoverAfterCrash(t, db)
	})
}

func recoverAfterCrash(t *testing.T, db store.Store) {
	ctx := context.Background()
	t0 := time.Date(2026, 3, 1, 0, 0, 0, 0, time.UTC)
	clock := cairn.NewManualClock(t0)
	target := "31337:0x00000000000000000000000000000000000000aa"
	newService := func() *webhook.Service {
		cfg := webhook.DefaultConfig()
		cfg.AllowPrivate = true
		return &webhook.Service{Store: db, Config: cfg, Clock: clock, Recovery: &webhook.Recovery{
			Versions: db, Ledger: db, Deposit: billing.DepositOf, Synced: func(ctx context.Context) (cairn.Anchor, bool, error) {
				a, err := store.LatestAnchor(ctx, db, target)
				return a, err == nil && a.Status == "synced", nil
			}}}
	}
	events := []string{cairn.EventListVersion, cairn.EventDepositCredited, cairn.EventAnchorSynced}
	early, err := newService().Create(ctx, "d1", "http://127.0.0.1:1/hook", events)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := db.EnsureDeveloper(ctx, "d1"); err != nil {
		t.Fatal(err)
	}

	// The facts, committed a minute later; their events never enqueued.
	clock.Advance(time.Minute)
	if err := db.CommitListVersion(ctx, cairn.ListVersion{Version: 1, BuiltAt: clock.Now(), Root: "0x01"}, nil, nil); err != nil {
		t.Fatal(err)
	}
	dep := &cairn.LedgerEntry{ID: cairn.NewID(), DeveloperID: "d1", AgentID: "a1", Kind: cairn.LedgerDeposit, Operation: billing.OperationDeposit,
		Amount: 150, Reason: "deposit of 1.5 APT (150000000 octas) in Aptos transaction 0xab, version 9, from 0x1",
		UniqueKey: "aptos:0xab", CreatedAt: clock.Now()}
	if err := db.Apply(ctx, dep); err != nil {
		t.Fatal(err)
	}
	if err := db.CreateAnchor(ctx, cairn.Anchor{Target: target, ListVersion: 1, Status: "synced", TxHash: "0xcd", BlockNumber: 7,
		SyncedAt: clock.Now()}); err != nil {
		t.Fatal(err)
	}
	clock.Advance(time.Hour)
	late, err := newService().Create(ctx, "d1", "http://127.0.0.1:2/hook", events)
	if err != nil {
		t.Fatal(err)
	}

	// The restart: two instances recover, one of them twice.
	first, second := newService(), newService()
	for _, s := range []*webhook.Service{first, second, first} {
		if err := s.Recover(ctx); err != nil {
			t.Fatal(err)
		}
	}
	ds, err := db.ListDeliveries(ctx, "d1", early.ID, "", 10)
	if err != nil {
		t.Fatal(err)
	}
	byType := map[string]string{}
	for _, d := range ds {
		byType[d.Type] = string(d.Body)
	}
	if len(ds) != 3 || len(byType) != 3 {
		t.Fatalf("deliveries to the endpoint of the crash: %d, by type %v", len(ds), byType)
	}
	var body struct {
		Data map[string]any `json:"data"`
	}
	if err := json.Unmarshal([]byte(byType[cairn.EventDepositCredited]), &body); err != nil || body.Data["octas"] != "150000000" ||
		body.Data["txHash"] != "0xab" || body.Data["transactionId"] != dep.ID {
		t.Fatalf("deposit.credited %s", byType[cairn.EventDepositCredited])
	}
	if ds, err := db.ListDeliveries(ctx, "d1", late.ID, "", 10); err != nil || len(ds) != 0 {
		t.Fatalf("deliveries to the endpoint created after the facts: %+v, %v", ds, err)
	}
}
