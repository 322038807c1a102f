// Package storetest is the one conformance suite of the storage contract:
// RunTests checks a store.Store against the doc comments of store.go (OK
// paths, error codes, atomicity, ordering, paging and concurrency). Every
// backend runs it from its own tests.
//
// It tests behaviour only, through the store interfaces; it must not import
// a backend. It imports the root package, store and the standard library.
package storetest

import (
	"context"
	"crypto/rand"
	"crypto/sha256"
	"errors"
	"fmt"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunTests runs the suite. open must return a fresh, empty store for each
// call; the suite closes every store it opens (t.Cleanup) and runs each
// subtest on its own store. It runs the suite of every interface store.Store
// embeds (store.Memories, store.Media, ...) on every backend, and that of
// the optional store.MemorySearch where the backend implements it (a
// skipped subtest naming the interface elsewhere).
func RunTests(t *testing.T, open func(t *testing.T) store.Store) {
	groups := []struct {
		name  string
		tests []test
	}{
		{"Accounts", accountTests},
		{"Agents", agentTests},
		{"Ledger", ledgerTests},
		{"Audit", auditTests},
		{"Settings", settingTests},
		{"Lifecycle", lifecycleTests},
		{"ConcurrentLedger", ledgerConcurrencyTests},
		{"ConcurrentAccounts", accountConcurrencyTests},
	}
	for _, g := range groups {
		t.Run(g.name, func(t *testing.T) {
			for _, tc := range g.tests {
				t.Run(tc.name, func(t *testing.T) {
					s := open(t)
					t.Cleanup(func() {
						if err := s.Close(); err != nil {
							t.Errorf("Close: %v", err)
						}
					})
					tc.fn(t, s)
				})
			}
		})
	}
	runContract(t, open)
}

type test struct {
	name string
	fn   func(t *testing.T, s store.Store)
}

var ctx = context.Background()

// t0 is the fixed time the suites date their records from.
var t0 = time.Date(2026, 4, 1, 0, 0, 0, 0, time.UTC)

// now is a time every backend stores exactly (microseconds, UTC).
func now() time.Time { return time.Now().UTC().Truncate(time.Microsecond) }

func randHash() []byte {
	var b [32]byte
	if _, err := rand.Read(b[:]); err != nil {
		panic(err)
	}
	h := sha256.Sum256(b[:])
	return h[:]
}

// newAgent returns an unsaved agent of devID with a fresh key hash and
// deposit index (reserved from s, so it is valid whatever the backend).
func newAgent(t *testing.T, s store.Store, devID string) *cairn.Agent {
	t.Helper()
	idx, err := s.NextDepositIndex(ctx)
	if err != nil {
		t.Fatalf("NextDepositIndex: %v", err)
	}
	id := cairn.NewID()
	return &cairn.Agent{
		ID: id, DeveloperID: devID, Name: "agent-" + id[:8],
		KeyHash: randHash(), SecretHash: randHash(),
		DepositIndex: idx, DepositAddress: fmt.Sprintf("0x%064x", idx),
		CreatedAt: now(),
	}
}

// grant returns an unsaved starter grant of amount credits.
func grant(devID string, amount int64) *cairn.LedgerEntry {
	return &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: devID, Kind: cairn.LedgerGrant,
		Operation: "starter", Amount: amount, Reason: "starter credits",
	}
}

// charge returns an unsaved charge of cost credits (a negative amount).
func charge(devID string, cost int64) *cairn.LedgerEntry {
	return &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: devID, Kind: cairn.LedgerCharge,
		Operation: "memory.write", Amount: -cost, RequestID: cairn.NewID(),
	}
}

// wantCharged checks the Seq and BalanceAfter Apply gave the charge c:
// seq and bal, or both 0 for a charge a store deferred (store.Ledger), in
// which case they are set to seq and bal for the comparisons with the
// ledger read later. CreatedAt is set either way.
func wantCharged(t *testing.T, c *cairn.LedgerEntry, seq uint64, bal int64) {
	t.Helper()
	if c.CreatedAt.IsZero() || (c.Seq != seq || c.BalanceAfter != bal) && (c.Seq != 0 || c.BalanceAfter != 0) {
		t.Fatalf("charge seq %d after %d at %v, want %d, %d (or 0, 0 deferred) and a time", c.Seq, c.BalanceAfter, c.CreatedAt, seq, bal)
	}
	c.Seq, c.BalanceAfter = seq, bal
}

// createAccount creates a developer with one agent and, when balance > 0, a
// starter grant of balance credits.
func createAccount(t *testing.T, s store.Store, balance int64) (*cairn.Developer, *cairn.Agent) {
	t.Helper()
	dev := &cairn.Developer{ID: cairn.NewID(), CreatedAt: now()}
	a := newAgent(t, s, dev.ID)
	var g *cairn.LedgerEntry
	if balance > 0 {
		g = grant(dev.ID, balance)
	}
	if err := s.CreateAccount(ctx, dev, a, g); err != nil {
		t.Fatalf("CreateAccount: %v", err)
	}
	return dev, a
}

// wantCode fails the test unless err carries code.
func wantCode(t *testing.T, err error, code string) {
	t.Helper()
	if got := cairn.ErrorCode(err); got != code {
		t.Fatalf("error code = %q (%v), want %q", got, err, code)
	}
}

func mustOK(t *testing.T, err error, what string) {
	t.Helper()
	if err != nil {
		t.Fatalf("%s: %v", what, err)
	}
}

// detailInt returns the integer extension member k of err's *cairn.Error.
func detailInt(t *testing.T, err error, k string) int64 {
	t.Helper()
	var e *cairn.Error
	if !errors.As(err, &e) {
		t.Fatalf("%v is not a *cairn.Error", err)
	}
	switch v := e.Details[k].(type) {
	case int:
		return int64(v)
	case int64:
		return v
	case uint64:
		return int64(v)
	case float64:
		return int64(v)
	default:
		t.Fatalf("Details[%q] = %#v, want an integer", k, e.Details[k])
		return 0
	}
}
