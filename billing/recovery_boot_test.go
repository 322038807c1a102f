package billing_test

import (
	"context"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store/pebble"
)

// TestRecoveryBootOrigins: a start recovers the charges of the boot the
// instance recorded last (or, when none is recorded, of the origin
// earlier releases used), never those of a boot it did not record (a copy
// of its data dir running beside it).
func TestRecoveryBootOrigins(t *testing.T) {
	ctx := context.Background()
	clock, db, dev, agent := recoveryAccount(t)
	charge := func(origin, req string) *cairn.LedgerEntry {
		t.Helper()
		clock.Advance(time.Millisecond)
		c, err := (&billing.Ledger{Store: db, Clock: clock, Origin: origin}).Charge(ctx, dev.ID, agent.ID, billing.OpMemoryWrite, 5, req)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	start := func(origin string) []*cairn.LedgerEntry {
		t.Helper()
		clock.Advance(time.Second)
		refs, err := (&billing.Recovery{Ledger: db, Effects: db, Settled: db, Settings: db, Origin: origin,
			LegacyOrigin: "base", Clock: clock}).Recover(ctx)
		if err != nil {
			t.Fatal(err)
		}
		return refs
	}
	boot1 := billing.BootOrigin("base")
	if boot2 := billing.BootOrigin("base"); boot1 == boot2 || !strings.HasPrefix(boot1, "base.") {
		t.Fatalf("boot origins %q, %q", boot1, boot2)
	}
	legacy := charge("base", "before-the-upgrade")
	if refs := start(boot1); len(refs) != 1 || refs[0].RefID != legacy.ID {
		t.Fatalf("first start after the upgrade refunded %v, want the legacy charge", refs)
	}
	own := charge(boot1, "own")
	charge(billing.BootOrigin("base"), "a-copy-in-flight")
	charge("base", "legacy-again")
	if refs := start(billing.BootOrigin("base")); len(refs) != 1 || refs[0].RefID != own.ID {
		t.Fatalf("restart refunded %v, want only its previous boot's charge %s", refs, own.ID)
	}
}

// recoveryAccount is a store with one account of 1000 credits and a
// manual clock, for the recovery tests.
func recoveryAccount(t *testing.T) (*cairn.ManualClock, *pebble.DB, *cairn.Developer, *cairn.Agent) {
	t.Helper()
	clock := cairn.NewManualClock(time.Date(2026, 8, 1, 12, 0, 0, 0, time.UTC))
	db := openDB(t, t.TempDir())
	t.Cleanup(func() { db.Close() })
	dev := &cairn.Developer{ID: cairn.NewID(), CreatedAt: clock.Now()}
	agent := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, Name: "a", KeyHash: []byte("k"), SecretHash: []byte("s"), CreatedAt: clock.Now()}
	grant := &cairn.LedgerEntry{ID: cairn.NewID(), DeveloperID: dev.ID, Kind: cairn.LedgerGrant, Operation: "starter", Amount: 1000}
	if err := db.CreateAccount(context.Background(), dev, agent, grant); err != nil {
		t.Fatal(err)
	}
	return clock, db, dev, agent
}
