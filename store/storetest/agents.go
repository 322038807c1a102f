package storetest

import (
	"errors"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var errRefused = errors.New("storetest: updater refused")

var agentTests = []test{
	{"CreateAgent/OK", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		a := newAgent(t, s, dev.ID)
		want := *a
		mustOK(t, s.CreateAgent(ctx, a), "CreateAgent")
		got, err := s.AgentByKeyHash(ctx, want.KeyHash)
		mustOK(t, err, "AgentByKeyHash")
		wantAgent(t, got, &want)
		wantBalance(t, s, dev.ID, 100)
	}},
	{"CreateAgent/ErrUnknownDeveloper", func(t *testing.T, s store.Store) {
		a := newAgent(t, s, cairn.NewID())
		wantCode(t, s.CreateAgent(ctx, a), cairn.ENOTFOUND)
		wantNoAgent(t, s, a)
	}},
	{"CreateAgent/ErrConflicts", func(t *testing.T, s store.Store) {
		dev, first := createAccount(t, s, 100)
		for _, tc := range conflictsWith(first) {
			t.Run(tc.name, func(t *testing.T) {
				a := newAgent(t, s, dev.ID)
				tc.modify(a)
				wantCode(t, s.CreateAgent(ctx, a), cairn.ECONFLICT)
				wantBalance(t, s, dev.ID, 100)
				got, err := s.AgentByKeyHash(ctx, first.KeyHash)
				mustOK(t, err, "AgentByKeyHash of the first agent")
				wantAgent(t, got, first)
			})
		}
	}},
	{"UpdateAgent/OK", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 100)
		au := &cairn.AuditEntry{AgentID: a.ID, Action: cairn.AuditRevoke, RequestID: "req-1"}
		at := now()
		got, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
			x.Name, x.Revoked, x.RevokedAt = "renamed", true, at
			return nil
		}, au)
		mustOK(t, err, "UpdateAgent")
		want := *a
		want.Name, want.Revoked, want.RevokedAt = "renamed", true, at
		wantAgent(t, got, &want)
		stored, err := s.Agent(ctx, a.ID)
		mustOK(t, err, "Agent")
		wantAgent(t, stored, &want)
		log, err := s.ListAudit(ctx, a.ID, cairn.AuditFilter{}, "", 10)
		mustOK(t, err, "ListAudit")
		if len(log) != 1 || log[0].Action != cairn.AuditRevoke || log[0].RequestID != "req-1" || log[0].ID == "" {
			t.Fatalf("audit log = %+v, want the one revoke entry", log)
		}
	}},
	{"UpdateAgent/ErrUpdaterFails", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 100)
		_, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
			x.Name, x.KeyHash = "changed", randHash()
			return errRefused
		}, &cairn.AuditEntry{AgentID: a.ID, Action: cairn.AuditRotateKey})
		if !errors.Is(err, errRefused) {
			t.Fatalf("UpdateAgent error = %v, want the updater's", err)
		}
		got, err := s.AgentByKeyHash(ctx, a.KeyHash)
		mustOK(t, err, "AgentByKeyHash")
		wantAgent(t, got, a)
		log, err := s.ListAudit(ctx, a.ID, cairn.AuditFilter{}, "", 10)
		mustOK(t, err, "ListAudit")
		if len(log) != 0 {
			t.Fatalf("audit log = %+v, want nothing", log)
		}
	}},
	{"UpdateAgent/ErrNotFound", func(t *testing.T, s store.Store) {
		_, err := s.UpdateAgent(ctx, cairn.NewID(), func(*cairn.Agent) error { return nil }, nil)
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"UpdateAgent/RotateKey", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 100)
		newKey, newSecret, at := randHash(), randHash(), now()
		got, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
			x.KeyHash, x.SecretHash, x.RotatedAt = newKey, newSecret, at
			return nil
		}, &cairn.AuditEntry{AgentID: a.ID, Action: cairn.AuditRotateKey})
		mustOK(t, err, "UpdateAgent")
		_, err = s.AgentByKeyHash(ctx, a.KeyHash)
		wantCode(t, err, cairn.ENOTFOUND)
		want := *a
		want.KeyHash, want.SecretHash, want.RotatedAt = newKey, newSecret, at
		wantAgent(t, got, &want)
		byKey, err := s.AgentByKeyHash(ctx, newKey)
		mustOK(t, err, "AgentByKeyHash of the new key")
		wantAgent(t, byKey, &want)
		log, err := s.ListAudit(ctx, a.ID, cairn.AuditFilter{Action: cairn.AuditRotateKey}, "", 10)
		mustOK(t, err, "ListAudit")
		if len(log) != 1 {
			t.Fatalf("rotation audit = %+v, want one entry", log)
		}
	}},
	{"UpdateAgent/ErrKeyHashTaken", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 100)
		_, b := createAccount(t, s, 100)
		_, err := s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
			x.KeyHash = b.KeyHash
			return nil
		}, nil)
		wantCode(t, err, cairn.ECONFLICT)
		for _, want := range []*cairn.Agent{a, b} {
			got, err := s.AgentByKeyHash(ctx, want.KeyHash)
			mustOK(t, err, "AgentByKeyHash")
			wantAgent(t, got, want)
		}
	}},
	{"UpdateAgent/IDsImmutable", func(t *testing.T, s store.Store) {
		_, a := createAccount(t, s, 100)
		newID, newDev := cairn.NewID(), cairn.NewID()
		_, _ = s.UpdateAgent(ctx, a.ID, func(x *cairn.Agent) error {
			x.ID, x.DeveloperID = newID, newDev
			return nil
		}, nil) // refusing or ignoring the change are both correct
		got, err := s.Agent(ctx, a.ID)
		mustOK(t, err, "Agent")
		if got.ID != a.ID || got.DeveloperID != a.DeveloperID {
			t.Fatalf("agent is now %s of %s, want %s of %s", got.ID, got.DeveloperID, a.ID, a.DeveloperID)
		}
		_, err = s.Agent(ctx, newID)
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"NextDepositIndex/Distinct", func(t *testing.T, s store.Store) {
		seen := map[uint32]bool{}
		for i := 0; i < 50; i++ {
			idx, err := s.NextDepositIndex(ctx)
			mustOK(t, err, "NextDepositIndex")
			if seen[idx] {
				t.Fatalf("index %d handed out twice", idx)
			}
			seen[idx] = true
		}
		_, a := createAccount(t, s, 0)
		if seen[a.DepositIndex] {
			t.Fatalf("index %d handed out twice", a.DepositIndex)
		}
	}},
}

// agentConflict makes a new agent collide with an existing one in one of
// the fields that must be unique.
type agentConflict struct {
	name   string
	modify func(a *cairn.Agent)
}

// conflictsWith returns the ways a new agent can collide with first: its
// id, its key hash, its deposit index.
func conflictsWith(first *cairn.Agent) []agentConflict {
	return []agentConflict{
		{"AgentID", func(a *cairn.Agent) { a.ID = first.ID }},
		{"KeyHash", func(a *cairn.Agent) { a.KeyHash = first.KeyHash }},
		{"DepositIndex", func(a *cairn.Agent) {
			a.DepositIndex, a.DepositAddress = first.DepositIndex, first.DepositAddress
		}},
	}
}
