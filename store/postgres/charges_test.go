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
	db := openTest(t, Options{ChargeFlush: time.Hour})
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

// TestChargesTogether: the charges of one batch go in one statement when
// the balance covers them all, numbered and balanced in their order; when
// it does not, each is applied on its own, so those that fit are taken
// and the others refused with the balance they saw.
func TestChargesTogether(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{})
	dev := &cairn.Developer{ID: cairn.NewID()}
	agent := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, KeyHash: []byte(cairn.NewID()), DepositIndex: 1}
	if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{ID: cairn.NewID(), DeveloperID: dev.ID, Kind: cairn.LedgerGrant, Amount: 10}); err != nil {
		t.Fatal(err)
	}
	batch := func(costs ...int64) *chargeBatch {
		b := &chargeBatch{errs: make([]error, len(costs))}
		for _, c := range costs {
			e := db.prepareEntry(&cairn.LedgerEntry{DeveloperID: dev.ID, AgentID: agent.ID, Kind: cairn.LedgerCharge, Operation: "memory.read", Amount: -c})
			b.entries = append(b.entries, &e)
		}
		db.applyBatch(ctx, b)
		return b
	}
	b := batch(1, 2, 3)
	for i, want := range []struct {
		seq uint64
		bal int64
	}{{2, 9}, {3, 7}, {4, 4}} {
		if e := b.entries[i]; b.errs[i] != nil || e.Seq != want.seq || e.BalanceAfter != want.bal {
			t.Fatalf("charge %d: %+v, %v; want seq %d, balance %d", i, e, b.errs[i], want.seq, want.bal)
		}
	}
	b = batch(2, 2, 5) // 9 > 4 left: each alone, the last refused
	if b.errs[0] != nil || b.errs[1] != nil || !cairn.IsCode(b.errs[2], cairn.EPAYMENT) || b.entries[1].Seq != 6 || b.entries[1].BalanceAfter != 0 {
		t.Fatalf("charges beyond the balance: %+v, %v", b.entries, b.errs)
	}
	es, err := db.Transactions(ctx, dev.ID, 0, 10)
	if err != nil || len(es) != 6 || es[0].BalanceAfter != 0 {
		t.Fatalf("ledger = %+v, %v", es, err)
	}
}
