package postgres

import (
	"context"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/jackc/pgx/v5"
)

// TestChargeCommitsWithoutWaiting: a charge's statement (and a memory
// read's audit entry's) turns synchronous commit off for its own
// transaction only (any other entry's leaves it on), Apply of a charge schedules the flush of the WAL and a credit does
// not, and Close runs the flush that is due.
func TestChargeCommitsWithoutWaiting(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{ChargeFlush: time.Hour, ChargeDefer: -1})
	dev := &cairn.Developer{ID: cairn.NewID()}
	if err := db.CreateAccount(ctx, dev, &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte(cairn.NewID())}, nil); err != nil {
		t.Fatal(err)
	}
	entry := func(kind string, amount int64) *cairn.LedgerEntry {
		return &cairn.LedgerEntry{DeveloperID: dev.ID, Kind: kind, Amount: amount, Operation: "memory.read"}
	}
	for _, c := range []struct {
		sql  string
		want string
	}{{sqlCharge, "off"}, {sqlApply, "on"}, {sqlAuditAsync, "off"}, {sqlAudit, "on"}} {
		err := db.inTx(ctx, func(tx pgx.Tx) error {
			switch c.sql {
			case sqlAudit, sqlAuditAsync:
				a := db.prepareAudit(&cairn.AuditEntry{AgentID: "a", Action: cairn.AuditRead})
				if err := insertAudit(ctx, tx, c.sql, &a); err != nil {
					t.Fatal(err)
				}
			default:
				e := db.prepareEntry(entry(cairn.LedgerGrant, 5))
				if ok, err := insertEntry(ctx, tx, c.sql, &e); err != nil || !ok {
					t.Fatalf("insert: %v %v", ok, err)
				}
			}
			var got string
			if err := tx.QueryRow(ctx, "SELECT current_setting('synchronous_commit')").Scan(&got); err != nil || got != c.want {
				t.Fatalf("synchronous_commit in the entry's transaction: %q %v, want %q", got, err, c.want)
			}
			return nil
		})
		if err != nil {
			t.Fatal(err)
		}
	}
	due := func() bool {
		db.charges.mu.Lock()
		defer db.charges.mu.Unlock()
		return db.charges.timer != nil
	}
	if err := db.Apply(ctx, entry(cairn.LedgerGrant, 10)); err != nil || due() {
		t.Fatalf("credit: %v, flush due %v", err, due())
	}
	if err := db.Apply(ctx, entry(cairn.LedgerCharge, -3)); err != nil || !due() {
		t.Fatalf("charge: %v, flush due %v", err, due())
	}
	got, err := db.Developer(ctx, dev.ID)
	if err != nil || got.Balance != 17 {
		t.Fatalf("balance %+v, %v; want 17", got, err)
	}
	db.Close()
	if due() {
		t.Fatal("flush still due after Close")
	}
}
