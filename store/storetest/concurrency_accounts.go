package storetest

import (
	"fmt"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var accountConcurrencyTests = []test{
	{"CreateAgents", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		agents := make([]*cairn.Agent, 30)
		for i := range agents {
			agents[i] = newAgent(t, s, dev.ID)
		}
		errs := make([]error, len(agents))
		parallel(len(agents), func(i int) { errs[i] = s.CreateAgent(ctx, agents[i]) })
		for i, err := range errs {
			mustOK(t, err, "CreateAgent")
			got, err := s.AgentByKeyHash(ctx, agents[i].KeyHash)
			mustOK(t, err, "AgentByKeyHash")
			wantAgent(t, got, agents[i])
		}
		wantBalance(t, s, dev.ID, 100)
	}},
	{"DepositIndexes", func(t *testing.T, s store.Store) {
		idx := make([]uint32, 100)
		parallel(len(idx), func(i int) {
			var err error
			if idx[i], err = s.NextDepositIndex(ctx); err != nil {
				t.Errorf("NextDepositIndex: %v", err)
			}
		})
		wantDistinct(t, idx)
	}},
	{"CreateAccounts", func(t *testing.T, s store.Store) {
		agents := make([]*cairn.Agent, 50)
		parallel(len(agents), func(i int) {
			idx, err := s.NextDepositIndex(ctx)
			if err != nil {
				t.Errorf("NextDepositIndex: %v", err)
				return
			}
			dev := &cairn.Developer{ID: cairn.NewID()}
			a := &cairn.Agent{
				ID: cairn.NewID(), DeveloperID: dev.ID, KeyHash: randHash(),
				DepositIndex: idx, DepositAddress: fmt.Sprintf("0x%064x", idx), CreatedAt: now(),
			}
			if err := s.CreateAccount(ctx, dev, a, grant(dev.ID, 100)); err != nil {
				t.Errorf("CreateAccount: %v", err)
				return
			}
			agents[i] = a
		})
		if t.Failed() {
			return
		}
		idx := make([]uint32, len(agents))
		for i, a := range agents {
			idx[i] = a.DepositIndex
			got, err := s.AgentByKeyHash(ctx, a.KeyHash)
			mustOK(t, err, "AgentByKeyHash")
			wantAgent(t, got, a)
			wantBalance(t, s, a.DeveloperID, 100)
		}
		wantDistinct(t, idx)
	}},
	{"CreateAccountsSameKey", func(t *testing.T, s store.Store) {
		key := randHash()
		errs := make([]error, 20)
		parallel(len(errs), func(i int) {
			dev := &cairn.Developer{ID: cairn.NewID()}
			a := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, KeyHash: key, CreatedAt: now()}
			errs[i] = s.CreateAccount(ctx, dev, a, grant(dev.ID, 100))
		})
		if n := succeeded(t, "CreateAccount", errs, cairn.ECONFLICT); n != 1 {
			t.Fatalf("%d accounts created with one key, want 1", n)
		}
	}},
	{"UpdateAgentSerialized", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 0)
		mustOK(t, func() error {
			_, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error { x.Name = "0"; return nil }, nil)
			return err
		}(), "UpdateAgent")
		parallel(50, func(int) {
			_, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
				var n int
				if _, err := fmt.Sscan(x.Name, &n); err != nil {
					return err
				}
				x.Name = fmt.Sprint(n + 1)
				return nil
			}, &cairn.AuditEntry{AgentID: a.ID, Action: cairn.AuditWrite})
			if err != nil {
				t.Errorf("UpdateAgent: %v", err)
			}
		})
		got, err := s.Agent(ctx, a.ID)
		mustOK(t, err, "Agent")
		if got.Name != "50" {
			t.Fatalf("after 50 concurrent increments the name is %q, want 50", got.Name)
		}
		log, err := s.ListAudit(ctx, a.ID, cairn.AuditFilter{}, "", 100)
		mustOK(t, err, "ListAudit")
		if len(log) != 50 {
			t.Fatalf("audit has %d entries, want 50", len(log))
		}
	}},
	{"EnsureDeveloper", func(t *testing.T, s store.Store) {
		id := cairn.NewID()
		devs := make([]*cairn.Developer, 20)
		parallel(len(devs), func(i int) {
			var err error
			if devs[i], err = s.EnsureDeveloper(ctx, id); err != nil {
				t.Errorf("EnsureDeveloper: %v", err)
			}
		})
		if t.Failed() {
			return
		}
		for _, d := range devs {
			if d.ID != id || !d.CreatedAt.Equal(devs[0].CreatedAt) {
				t.Fatalf("EnsureDeveloper returned %+v and %+v: two accounts", *d, *devs[0])
			}
		}
	}},
}

func wantDistinct(t *testing.T, idx []uint32) {
	t.Helper()
	seen := make(map[uint32]bool, len(idx))
	for _, i := range idx {
		if seen[i] {
			t.Fatalf("deposit index %d handed out twice", i)
		}
		seen[i] = true
	}
}
