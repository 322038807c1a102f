package storetest

import (
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var accountTests = []test{
	{"CreateAccount/OK", func(t *testing.T, s store.Store) {
		dev := &cairn.Developer{ID: cairn.NewID(), CreatedAt: now()}
		a := newAgent(t, s, dev.ID)
		want := *a
		g := grant(dev.ID, 100)
		mustOK(t, s.CreateAccount(ctx, dev, a, g), "CreateAccount")
		if dev.Balance != 100 || g.Seq != 1 || g.BalanceAfter != 100 || g.CreatedAt.IsZero() {
			t.Fatalf("after CreateAccount: balance %d, grant seq %d after %d at %v",
				dev.Balance, g.Seq, g.BalanceAfter, g.CreatedAt)
		}
		d, err := s.Developer(ctx, dev.ID)
		mustOK(t, err, "Developer")
		if d.ID != dev.ID || d.Balance != 100 || d.LedgerSeq != 1 || !d.CreatedAt.Equal(dev.CreatedAt) {
			t.Fatalf("Developer = %+v, want balance 100 seq 1 created %v", *d, dev.CreatedAt)
		}
		got, err := s.Agent(ctx, a.ID)
		mustOK(t, err, "Agent")
		wantAgent(t, got, &want)
		got, err = s.AgentByKeyHash(ctx, a.KeyHash)
		mustOK(t, err, "AgentByKeyHash")
		wantAgent(t, got, &want)
		entries := checkLedger(t, s, dev.ID)
		if len(entries) != 1 {
			t.Fatalf("ledger has %d entries, want the grant alone", len(entries))
		}
		wantEntry(t, entries[0], *g)
	}},
	{"CreateAccount/OKWithoutGrant", func(t *testing.T, s store.Store) {
		dev, a := createAccount(t, s, 0)
		wantBalance(t, s, dev.ID, 0)
		if n := len(checkLedger(t, s, dev.ID)); n != 0 {
			t.Fatalf("ledger has %d entries, want none", n)
		}
		if _, err := s.AgentByKeyHash(ctx, a.KeyHash); err != nil {
			t.Fatalf("AgentByKeyHash: %v", err)
		}
	}},
	{"CreateAccount/ErrDeveloperExists", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		a := newAgent(t, s, dev.ID)
		err := s.CreateAccount(ctx, &cairn.Developer{ID: dev.ID}, a, grant(dev.ID, 100))
		wantCode(t, err, cairn.ECONFLICT)
		wantNoAgent(t, s, a)
		wantBalance(t, s, dev.ID, 100)
		if n := len(checkLedger(t, s, dev.ID)); n != 1 {
			t.Fatalf("ledger has %d entries, want 1", n)
		}
	}},
	{"CreateAccount/ErrConflicts", func(t *testing.T, s store.Store) {
		_, first := createAccount(t, s, 100)
		for _, tc := range conflictsWith(first) {
			t.Run(tc.name, func(t *testing.T) {
				dev := &cairn.Developer{ID: cairn.NewID()}
				a := newAgent(t, s, dev.ID)
				tc.modify(a)
				wantCode(t, s.CreateAccount(ctx, dev, a, grant(dev.ID, 100)), cairn.ECONFLICT)
				_, err := s.Developer(ctx, dev.ID)
				wantCode(t, err, cairn.ENOTFOUND)
				got, err := s.AgentByKeyHash(ctx, first.KeyHash)
				mustOK(t, err, "AgentByKeyHash of the first agent")
				wantAgent(t, got, first)
				if got, err := s.Agent(ctx, a.ID); err == nil && got.DeveloperID == dev.ID {
					t.Fatalf("agent of the failed account was written: %+v", *got)
				}
			})
		}
	}},
	{"CreateAccount/ErrGrantUniqueKeyUsed", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 0)
		dep := grant(dev.ID, 10)
		dep.Kind, dep.UniqueKey = cairn.LedgerDeposit, "tx:"+cairn.NewID()
		mustOK(t, s.Apply(ctx, dep), "Apply deposit")
		other := &cairn.Developer{ID: cairn.NewID()}
		a := newAgent(t, s, other.ID)
		g := grant(other.ID, 10)
		g.UniqueKey = dep.UniqueKey
		wantCode(t, s.CreateAccount(ctx, other, a, g), cairn.ECONFLICT)
		_, err := s.Developer(ctx, other.ID)
		wantCode(t, err, cairn.ENOTFOUND)
		wantNoAgent(t, s, a)
	}},
	{"EnsureDeveloper/Creates", func(t *testing.T, s store.Store) {
		id := cairn.NewID()
		d, err := s.EnsureDeveloper(ctx, id)
		mustOK(t, err, "EnsureDeveloper")
		if d.ID != id || d.Balance != 0 || d.LedgerSeq != 0 {
			t.Fatalf("EnsureDeveloper = %+v, want a new zero-balance account", *d)
		}
		got, err := s.Developer(ctx, id)
		mustOK(t, err, "Developer")
		if got.ID != id || got.Balance != 0 {
			t.Fatalf("Developer = %+v", *got)
		}
	}},
	{"EnsureDeveloper/Idempotent", func(t *testing.T, s store.Store) {
		id := cairn.NewID()
		first, err := s.EnsureDeveloper(ctx, id)
		mustOK(t, err, "EnsureDeveloper")
		mustOK(t, s.Apply(ctx, grant(id, 50)), "Apply")
		again, err := s.EnsureDeveloper(ctx, id)
		mustOK(t, err, "EnsureDeveloper again")
		if again.Balance != 50 || again.LedgerSeq != 1 || !again.CreatedAt.Equal(first.CreatedAt) {
			t.Fatalf("EnsureDeveloper again = %+v, want the existing account (balance 50, created %v)",
				*again, first.CreatedAt)
		}
		dev, _ := createAccount(t, s, 100)
		got, err := s.EnsureDeveloper(ctx, dev.ID)
		mustOK(t, err, "EnsureDeveloper of a registered account")
		if got.Balance != 100 {
			t.Fatalf("balance = %d, want 100", got.Balance)
		}
	}},
	{"Lookups/ErrNotFound", func(t *testing.T, s store.Store) {
		createAccount(t, s, 100)
		_, err := s.Developer(ctx, cairn.NewID())
		wantCode(t, err, cairn.ENOTFOUND)
		_, err = s.Agent(ctx, cairn.NewID())
		wantCode(t, err, cairn.ENOTFOUND)
		_, err = s.AgentByKeyHash(ctx, randHash())
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"Ping", func(t *testing.T, s store.Store) {
		mustOK(t, s.Ping(ctx), "Ping")
	}},
}

// wantNoAgent fails the test if a (never successfully created) resolves by
// id or by key hash.
func wantNoAgent(t *testing.T, s store.Store, a *cairn.Agent) {
	t.Helper()
	_, err := s.Agent(ctx, a.ID)
	wantCode(t, err, cairn.ENOTFOUND)
	_, err = s.AgentByKeyHash(ctx, a.KeyHash)
	wantCode(t, err, cairn.ENOTFOUND)
}
