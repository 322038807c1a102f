package storetest

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// RunPersistenceTest writes accounts, ledger, audit and settings through one
// store, closes it, and checks everything through a second store that open
// returns over the same data (same directory, same schema), including that
// deposit indexes keep increasing across the restart.
func RunPersistenceTest(t *testing.T, open func(t *testing.T) store.Store) {
	db := open(t)
	var used []uint32
	for i := 0; i < 3; i++ {
		idx, err := db.NextDepositIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		used = append(used, idx)
	}
	dev := &cairn.Developer{ID: cairn.NewID()}
	agent := &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte("0123456789abcdef0123456789abcdef"),
		DepositIndex: used[2], DepositAddress: "0xabc"}
	if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 100}); err != nil {
		t.Fatal(err)
	}
	charge := &cairn.LedgerEntry{DeveloperID: dev.ID, Kind: cairn.LedgerCharge, Operation: "memory.write", Amount: -5}
	if err := db.Apply(ctx, charge); err != nil {
		t.Fatal(err)
	}
	audit := &cairn.AuditEntry{AgentID: agent.ID, Action: cairn.AuditWrite, Resource: "notes",
		Detail: map[string]any{"version": float64(3), "tags": []any{"a", "b"}}}
	if err := db.AppendAudit(ctx, audit); err != nil {
		t.Fatal(err)
	}
	if err := db.PutSetting(ctx, "prices", []byte(`{"search":1}`)); err != nil {
		t.Fatal(err)
	}
	rateAt := time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC)
	for i := 0; i < 2; i++ {
		if r, err := db.TakeRate(ctx, "register/203.0.113.7", 2, time.Hour, rateAt); err != nil || !r.Allowed {
			t.Fatalf("TakeRate %d = %+v, %v; want allowed", i, r, err)
		}
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	db = open(t)
	defer db.Close()
	t.Run("RateLimits", func(t *testing.T) {
		r, err := db.TakeRate(ctx, "register/203.0.113.7", 2, time.Hour, rateAt.Add(time.Minute))
		if err != nil || r.Allowed || r.RetryAfter != 29*time.Minute {
			t.Fatalf("TakeRate after a restart = %+v, %v; want denied for 29 min", r, err)
		}
	})
	t.Run("Developer", func(t *testing.T) {
		d, err := db.Developer(ctx, dev.ID)
		if err != nil || d.Balance != 95 || d.LedgerSeq != 2 {
			t.Fatalf("Developer = %+v, %v; want balance 95 at seq 2", d, err)
		}
	})
	t.Run("Agent", func(t *testing.T) {
		a, err := db.AgentByKeyHash(ctx, agent.KeyHash)
		if err != nil || a.ID != agent.ID || a.DepositIndex != used[2] {
			t.Fatalf("AgentByKeyHash = %+v, %v; want agent %s", a, err, agent.ID)
		}
	})
	t.Run("Ledger", func(t *testing.T) {
		es, err := db.Transactions(ctx, dev.ID, 0, 10)
		if err != nil || len(es) != 2 || es[0].ID != charge.ID || es[0].BalanceAfter != 95 || es[1].Amount != 100 {
			t.Fatalf("Transactions = %+v, %v; want the charge over the grant", es, err)
		}
	})
	t.Run("Audit", func(t *testing.T) {
		log, err := db.ListAudit(ctx, agent.ID, cairn.AuditFilter{Action: cairn.AuditWrite}, "", 10)
		if err != nil || len(log) != 1 || log[0].ID != audit.ID || log[0].Resource != "notes" {
			t.Fatalf("ListAudit = %+v, %v; want the one write", log, err)
		}
		if tags, _ := log[0].Detail["tags"].([]any); log[0].Detail["version"] != float64(3) || len(tags) != 2 {
			t.Fatalf("Detail = %#v, want version 3 and two tags", log[0].Detail)
		}
	})
	t.Run("Setting", func(t *testing.T) {
		v, err := db.Setting(ctx, "prices")
		if err != nil || string(v) != `{"search":1}` {
			t.Fatalf("Setting = %q, %v", v, err)
		}
	})
	t.Run("DepositIndexContinues", func(t *testing.T) {
		idx, err := db.NextDepositIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		for _, u := range used {
			if idx == u {
				t.Fatalf("index %d handed out again after reopening (used %v)", idx, used)
			}
		}
	})
}
