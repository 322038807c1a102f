package compliance_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/compliance"
	"github.com/cairn-dev/cairn/store/pebble"
)

// TestEstablished: an account counts once it has paid (an administrator's
// grant or a deposit), or once it is old enough and has been charged;
// starter credits and age alone do not make it established.
func TestEstablished(t *testing.T) {
	ctx := context.Background()
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	clock := cairn.NewManualClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))
	s := &compliance.Reports{Store: db, Accounts: db, Ledger: db, MinAccountAge: 24 * time.Hour, Clock: clock}
	account := func(entries ...cairn.LedgerEntry) string {
		t.Helper()
		dev := &cairn.Developer{ID: cairn.NewID(), CreatedAt: clock.Now()}
		agent := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, Name: "a", KeyHash: []byte(cairn.NewID()), CreatedAt: clock.Now()}
		if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{ID: cairn.NewID(), Kind: cairn.LedgerGrant,
			Operation: "starter", Amount: 100}); err != nil {
			t.Fatal(err)
		}
		for _, e := range entries {
			e.ID, e.DeveloperID = cairn.NewID(), dev.ID
			if err := db.Apply(ctx, &e); err != nil {
				t.Fatal(err)
			}
		}
		return dev.ID
	}
	charge := cairn.LedgerEntry{Kind: cairn.LedgerCharge, Operation: "memory.write", Amount: -1}
	starterOnly := account()
	used := account(charge)
	granted := account(cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "admin.grant", Amount: 1})
	deposited := account(cairn.LedgerEntry{Kind: cairn.LedgerDeposit, Operation: "deposit", Amount: 1000, UniqueKey: "aptos:0x1"})
	check := func(when string, want map[string]bool) {
		t.Helper()
		for id, w := range want {
			if got, err := s.Established(ctx, id); err != nil || got != w {
				t.Errorf("%s: established(%s) = %v, %v; want %v", when, id, got, err, w)
			}
		}
	}
	check("fresh", map[string]bool{starterOnly: false, used: false, granted: true, deposited: true})
	clock.Advance(25 * time.Hour)
	check("a day later", map[string]bool{starterOnly: false, used: true, granted: true, deposited: true})
	if _, err := s.Established(ctx, cairn.NewID()); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("an unknown developer: %v", err)
	}
}
