package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/storetest"
)

func TestConformance(t *testing.T) {
	url := testURL(t)
	storetest.RunTests(t, func(t *testing.T) store.Store {
		db, err := Open(context.Background(), url, Options{Schema: newSchema(t, url)})
		if err != nil {
			t.Fatalf("Open: %v", err)
		}
		return db
	})
}

func TestPersistence(t *testing.T) {
	ctx := context.Background()
	url := testURL(t)
	schema := newSchema(t, url)
	db, err := Open(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
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
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}

	db, err = Open(ctx, url, Options{Schema: schema})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
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
		log, err := db.ListAudit(ctx, agent.ID, store.AuditFilter{Action: cairn.AuditWrite}, "", 10)
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

func TestDepositIndexSkipsHeld(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	// Agents that hold indexes 0, 1 and 3 without having reserved them.
	for _, idx := range []uint32{0, 1, 3} {
		dev := &cairn.Developer{ID: cairn.NewID()}
		a := &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte(cairn.NewID()), DepositIndex: idx, DepositAddress: "0x1"}
		if err := db.CreateAccount(ctx, dev, a, nil); err != nil {
			t.Fatal(err)
		}
	}
	// An agent without a deposit address holds no index.
	dev := &cairn.Developer{ID: cairn.NewID()}
	if err := db.CreateAccount(ctx, dev, &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte(cairn.NewID()), DepositIndex: 2}, nil); err != nil {
		t.Fatal(err)
	}
	for _, want := range []uint32{2, 4, 5} {
		got, err := db.NextDepositIndex(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if got != want {
			t.Fatalf("NextDepositIndex = %d, want %d", got, want)
		}
	}
}

func TestOpenClose(t *testing.T) {
	ctx := context.Background()
	t.Run("ErrBadURL", func(t *testing.T) {
		if _, err := Open(ctx, "postgres://%zz", Options{}); err == nil {
			t.Fatal("Open with a malformed URL succeeded")
		}
	})
	t.Run("CloseTwice", func(t *testing.T) {
		db := openTest(t, Options{})
		if err := db.Ping(ctx); err != nil {
			t.Fatalf("Ping: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Fatalf("Close: %v", err)
		}
		if err := db.Close(); err != nil {
			t.Fatalf("second Close: %v", err)
		}
		if err := db.Ping(ctx); !cairn.IsCode(err, cairn.EUNAVAILABLE) {
			t.Fatalf("Ping after Close = %v, want %s", err, cairn.EUNAVAILABLE)
		}
	})
	t.Run("Clock", func(t *testing.T) {
		at := time.Date(2030, 1, 2, 3, 4, 5, 6789, time.UTC)
		db := openTest(t, Options{Clock: cairn.NewManualClock(at)})
		e := &cairn.AuditEntry{AgentID: cairn.NewID(), Action: cairn.AuditRead}
		if err := db.AppendAudit(ctx, e); err != nil {
			t.Fatal(err)
		}
		d, err := db.EnsureDeveloper(ctx, "dev")
		if err != nil {
			t.Fatal(err)
		}
		want := at.Truncate(time.Microsecond) // timestamptz keeps microseconds
		if !e.CreatedAt.Equal(want) || !d.CreatedAt.Equal(want) {
			t.Fatalf("stamped %v and %v, want the clock's %v", e.CreatedAt, d.CreatedAt, want)
		}
	})
}
