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
	url := testURL(t)
	schema := newSchema(t, url)
	storetest.RunPersistenceTest(t, func(t *testing.T) store.Store {
		db, err := Open(context.Background(), url, Options{Schema: schema})
		if err != nil {
			t.Fatal(err)
		}
		return db
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
