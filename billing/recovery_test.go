package billing_test

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
)

func TestRecoveryRefundsInterruptedWrites(t *testing.T) {
	ctx := context.Background()
	clock, db, dev, agent := recoveryAccount(t)
	led := &billing.Ledger{Store: db, Clock: clock, Origin: "here"}
	other := &billing.Ledger{Store: db, Clock: clock, Origin: "elsewhere"}
	rec := &billing.Recovery{Ledger: db, Effects: db, Settled: db, Settings: db, Origin: "here", Clock: clock}
	// A run starts: recovery with no checkpoint looks back a day.
	if refs, err := rec.Recover(ctx); err != nil || len(refs) != 0 {
		t.Fatalf("first Recover = %v, %v", refs, err)
	}
	charge := func(l *billing.Ledger, op, req string, cost int64) *cairn.LedgerEntry {
		t.Helper()
		clock.Advance(time.Millisecond)
		c, err := l.Charge(ctx, dev.ID, agent.ID, op, cost, req)
		if err != nil {
			t.Fatal(err)
		}
		return c
	}
	effect := func(action, req string) {
		t.Helper()
		if err := db.AppendAudit(ctx, &cairn.AuditEntry{AgentID: agent.ID, Action: action, RequestID: req}); err != nil {
			t.Fatal(err)
		}
	}
	charge(led, billing.OpMemoryWrite, "written", 5)
	effect(cairn.AuditWrite, "written")
	charge(led, billing.OpMemoryUpdate, "put-written", 5)
	effect(cairn.AuditWrite, "put-written")
	charge(led, billing.OpMemoryDelete, "deleted", 2)
	effect(cairn.AuditDelete, "deleted")
	lost := charge(led, billing.OpMemoryWrite, "interrupted", 5)
	failed := charge(led, billing.OpMemoryWrite, "failed-422", 5)
	if _, err := led.Refund(ctx, failed, 0, "failed-422"); err != nil {
		t.Fatal(err)
	}
	dup := charge(led, billing.OpMemoryWrite, "conflict-409", 5)
	if err := db.MarkSettled(ctx, []string{dup.ID}, clock.Now()); err != nil {
		t.Fatal(err)
	}
	charge(other, billing.OpMemoryWrite, "another-replica", 5)
	charge(led, billing.OpMemoryRead, "read", 1)
	// A bulk request: item 1 stored, item 2 failed and refunded, item 3
	// stored, item 4 charged when the crash came.
	charge(led, billing.OpBulkWrite, "bulk", 5)
	effect(cairn.AuditWrite, "bulk")
	b2 := charge(led, billing.OpBulkWrite, "bulk", 5)
	if _, err := led.Refund(ctx, b2, 0, "bulk"); err != nil {
		t.Fatal(err)
	}
	charge(led, billing.OpBulkWrite, "bulk", 5)
	effect(cairn.AuditWrite, "bulk")
	bulkLost := charge(led, billing.OpBulkWrite, "bulk", 5)
	// The crash; the next start recovers.
	clock.Advance(time.Second)
	before, _ := led.Balance(ctx, dev.ID)
	refs, err := rec.Recover(ctx)
	if err != nil {
		t.Fatal(err)
	}
	got := map[string]bool{}
	for _, r := range refs {
		got[r.RefID] = true
		if r.Reason != billing.RecoveryReason || r.Kind != cairn.LedgerRefund {
			t.Fatalf("refund %+v", r)
		}
	}
	if len(refs) != 2 || !got[lost.ID] || !got[bulkLost.ID] {
		t.Fatalf("refunded %v, want %s and %s", got, lost.ID, bulkLost.ID)
	}
	after, _ := led.Balance(ctx, dev.ID)
	if after != before+10 {
		t.Fatalf("balance %d, want %d", after, before+10)
	}
	// Recovering again, with or without the checkpoint, refunds nothing.
	if refs, err := rec.Recover(ctx); err != nil || len(refs) != 0 {
		t.Fatalf("second Recover = %v, %v", refs, err)
	}
	if err := db.PutSetting(ctx, "billing.checkpoint", []byte(`{}`)); err != nil {
		t.Fatal(err)
	}
	if refs, err := rec.Recover(ctx); err != nil || len(refs) != 0 {
		t.Fatalf("Recover without a checkpoint = %v, %v", refs, err)
	}
	// A charge before the checkpoint (its request ended) is not looked at.
	clock.Advance(time.Hour)
	charge(led, billing.OpMemoryWrite, "old", 5)
	clock.Advance(time.Hour)
	if err := rec.Checkpoint(ctx, clock.Now()); err != nil {
		t.Fatal(err)
	}
	if refs, err := rec.Recover(ctx); err != nil || len(refs) != 0 {
		t.Fatalf("Recover after a checkpoint = %v, %v", refs, err)
	}
}
