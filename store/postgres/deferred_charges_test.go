package postgres

import (
	"context"
	"slices"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
)

var depositIndex atomic.Uint32

// newFunded creates an account with a starter grant of balance credits.
func newFunded(t *testing.T, db *DB, balance int64) string {
	t.Helper()
	dev := &cairn.Developer{ID: cairn.NewID()}
	agent := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, KeyHash: []byte(cairn.NewID()), DepositIndex: depositIndex.Add(1)}
	grant := &cairn.LedgerEntry{ID: cairn.NewID(), DeveloperID: dev.ID, Kind: cairn.LedgerGrant, Amount: balance}
	if err := db.CreateAccount(context.Background(), dev, agent, grant); err != nil {
		t.Fatal(err)
	}
	return dev.ID
}

func chargeOf(devID string, cost int64) *cairn.LedgerEntry {
	return &cairn.LedgerEntry{DeveloperID: devID, Kind: cairn.LedgerCharge, Operation: "memory.read", Amount: -cost, RequestID: cairn.NewID()}
}

// openDeferring opens a store whose charges are deferred until something
// reads or moves their account (an interval and a freshness bound too long
// to elapse), and another on its schema that defers none.
func openDeferring(t *testing.T) (db, other *DB) {
	t.Helper()
	db = openTest(t, Options{ChargeDefer: time.Hour})
	db.deferred.freshFor = time.Hour
	return db, openTest(t, Options{Schema: db.schema, ChargeDefer: -1})
}

func refundOf(c *cairn.LedgerEntry) *cairn.LedgerEntry {
	return &cairn.LedgerEntry{DeveloperID: c.DeveloperID, Kind: cairn.LedgerRefund, Operation: c.Operation, Amount: -c.Amount,
		RefID: c.ID, UniqueKey: "refund/" + c.ID}
}

// ledgerRows counts the account's entries in the database, through other
// connections than db's.
func ledgerRows(t *testing.T, other *DB, devID string) int {
	t.Helper()
	var n int
	if err := other.pool.QueryRow(context.Background(), "SELECT count(*) FROM ledger WHERE developer_id = $1", devID).Scan(&n); err != nil {
		t.Fatal(err)
	}
	return n
}

// exactLedger checks that the account's ledger is numbered 1..n without a
// gap, each BalanceAfter the running sum and never negative, and the
// balance the last one; it returns the entries, oldest first.
func exactLedger(t *testing.T, db *DB, devID string) []cairn.LedgerEntry {
	t.Helper()
	ctx := context.Background()
	es, err := db.Transactions(ctx, devID, 0, 1<<20)
	if err != nil {
		t.Fatal(err)
	}
	d, err := db.Developer(ctx, devID)
	if err != nil {
		t.Fatal(err)
	}
	var sum int64
	out := make([]cairn.LedgerEntry, 0, len(es))
	for i := len(es) - 1; i >= 0; i-- {
		e := es[i]
		sum += e.Amount
		if e.Seq != uint64(len(out)+1) || e.BalanceAfter != sum || sum < 0 {
			t.Fatalf("entry %d: seq %d balance after %d, running sum %d", len(out)+1, e.Seq, e.BalanceAfter, sum)
		}
		out = append(out, e)
	}
	if d.Balance != sum || d.LedgerSeq != uint64(len(out)) {
		t.Fatalf("developer balance %d seq %d, ledger sum %d of %d entries", d.Balance, d.LedgerSeq, sum, len(out))
	}
	return out
}

// TestDeferredCharges: charges accepted against a fresh balance reach the
// database only when something reads or moves the account (here with an
// interval too long to elapse), a read sees them, numbered in their order;
// and many concurrent charges of one account with the default interval
// take exactly the balance.
func TestDeferredCharges(t *testing.T) {
	ctx := context.Background()
	db, other := openDeferring(t)
	dev := newFunded(t, db, 200)
	var ids []string
	for range 5 {
		c := chargeOf(dev, 3)
		if err := db.Apply(ctx, c); err != nil {
			t.Fatal(err)
		}
		if c.Seq != 0 || c.BalanceAfter != 0 || c.ID == "" || c.CreatedAt.IsZero() {
			t.Fatalf("deferred charge %+v: want an id and a time, no seq or balance", c)
		}
		ids = append(ids, c.ID)
	}
	if n := ledgerRows(t, other, dev); n != 1 {
		t.Fatalf("%d ledger rows before any read, want the grant's alone", n)
	}
	if d, err := db.Developer(ctx, dev); err != nil || d.Balance != 185 || d.LedgerSeq != 6 {
		t.Fatalf("Developer after 5 charges of 3: %+v, %v", d, err)
	}
	if n := ledgerRows(t, other, dev); n != 6 {
		t.Fatalf("%d ledger rows after the read, want 6", n)
	}
	for range 2 {
		if err := db.Apply(ctx, chargeOf(dev, 1)); err != nil {
			t.Fatal(err)
		}
	}
	es, err := db.Transactions(ctx, dev, 0, 10)
	if err != nil || len(es) != 8 || es[0].BalanceAfter != 183 {
		t.Fatalf("Transactions after 2 more charges: %d entries, %v", len(es), err)
	}
	got := exactLedger(t, db, dev)
	for i, id := range ids {
		if got[i+1].ID != id || got[i+1].Amount != -3 || got[i+1].Kind != cairn.LedgerCharge {
			t.Fatalf("entry %d: %+v, want charge %s of 3", i+2, got[i+1], id)
		}
	}
	// A deferred charge is in LedgerSince at once.
	c := chargeOf(dev, 1)
	if err := db.Apply(ctx, c); err != nil || c.Seq != 0 {
		t.Fatalf("charge: %v, seq %d; want deferred", err, c.Seq)
	}
	var since []string
	if err := db.LedgerSince(ctx, c.CreatedAt, func(e *cairn.LedgerEntry) bool { since = append(since, e.ID); return true }); err != nil ||
		!slices.Contains(since, c.ID) {
		t.Fatalf("LedgerSince after a deferred charge: %v, %v", since, err)
	}
	if err := db.Apply(ctx, refundOf(c)); err != nil {
		t.Fatal(err)
	}
	// A deferred charge, then its refund: applied in that order.
	c = chargeOf(dev, 1)
	if err := db.Apply(ctx, c); err != nil || c.Seq != 0 {
		t.Fatalf("charge: %v, seq %d; want deferred", err, c.Seq)
	}
	r := refundOf(c)
	if err := db.Apply(ctx, r); err != nil || r.Seq != 12 || r.BalanceAfter != 183 {
		t.Fatalf("refund of a deferred charge: %+v %v, want seq 12 balance 183", r, err)
	}
	got = exactLedger(t, db, dev)
	if got[10].ID != c.ID || got[11].ID != r.ID {
		t.Fatalf("ledger ends %+v, %+v; want the charge then its refund", got[10], got[11])
	}
	// Beyond maxDeferredCredits waiting, a charge applies them and itself.
	for i := range maxDeferredCredits + 1 {
		if err := db.Apply(ctx, chargeOf(dev, 1)); err != nil {
			t.Fatal(err)
		}
		if n, want := ledgerRows(t, other, dev), 12+(i/maxDeferredCredits)*(maxDeferredCredits+1); n != want {
			t.Fatalf("after %d more charges: %d rows, want %d", i+1, n, want)
		}
	}
	// Below deferFloor, charges go to the database at once.
	d, err := db.Developer(ctx, dev)
	if err != nil || d.Balance != 183-maxDeferredCredits-1 {
		t.Fatalf("Developer: %+v, %v", d, err)
	}
	for d.Balance > 0 {
		c := chargeOf(dev, 1)
		if err := db.Apply(ctx, c); err != nil {
			t.Fatal(err)
		}
		d.Balance--
		if deferred := c.Seq == 0; deferred != (d.Balance >= deferFloor) {
			t.Fatalf("charge leaving %d: deferred %v", d.Balance, deferred)
		}
	}
	exactLedger(t, db, dev)

	t.Run("Concurrent", func(t *testing.T) {
		db := openTest(t, Options{Schema: db.schema})
		dev := newFunded(t, db, 150)
		var ok, refused atomic.Int64
		var wg sync.WaitGroup
		for range 16 {
			wg.Go(func() {
				for range 20 {
					switch err := db.Apply(ctx, chargeOf(dev, 1)); {
					case err == nil:
						ok.Add(1)
					case cairn.IsCode(err, cairn.EPAYMENT):
						refused.Add(1)
					default:
						t.Error(err)
					}
				}
			})
		}
		wg.Wait()
		es := exactLedger(t, db, dev)
		if ok.Load() != 150 || refused.Load() != 170 || len(es) != 151 || es[150].BalanceAfter != 0 {
			t.Fatalf("%d charges taken, %d refused, %d entries; want 150, 170, 151 ending at 0", ok.Load(), refused.Load(), len(es))
		}
		if n, _ := db.UnpaidCharges(); n != 0 {
			t.Fatalf("%d unpaid with one instance", n)
		}
	})
}

// TestDeferredChargesUnpaid: charges one instance accepted against a
// balance another spent meanwhile are applied while they fit, in order;
// the others are unpaid and counted, and their refunds credit nothing.
func TestDeferredChargesUnpaid(t *testing.T) {
	ctx := context.Background()
	db, other := openDeferring(t)
	dev := newFunded(t, db, deferFloor+10)
	var cs []*cairn.LedgerEntry
	for _, cost := range []int64{2, 2, 3, 1, 2} { // 10 in all
		c := chargeOf(dev, cost)
		if err := db.Apply(ctx, c); err != nil || c.Seq != 0 {
			t.Fatalf("charge %d: %v, seq %d; want deferred", cost, err, c.Seq)
		}
		cs = append(cs, c)
	}
	if err := other.Apply(ctx, chargeOf(dev, deferFloor+4)); err != nil { // the other instance spends
		t.Fatal(err)
	}
	// 6 left: 2 and 2 fit, 3 does not, 1 does, 2 does not.
	d, err := db.Developer(ctx, dev)
	if err != nil || d.Balance != 1 {
		t.Fatalf("Developer: %+v %v, want balance 1", d, err)
	}
	if n, credits := db.UnpaidCharges(); n != 2 || credits != 5 {
		t.Fatalf("unpaid %d charges of %d credits, want 2 of 5", n, credits)
	}
	es := exactLedger(t, db, dev)
	want := []string{"", "", cs[0].ID, cs[1].ID, cs[3].ID} // grant, the other's charge, then those that fit
	if len(es) != len(want) {
		t.Fatalf("%d entries, want %d", len(es), len(want))
	}
	for i, id := range want {
		if id != "" && es[i].ID != id {
			t.Fatalf("entry %d is %s, want %s", i+1, es[i].ID, id)
		}
	}

	r := refundOf(cs[2]) // unpaid
	if err := db.Apply(ctx, r); err != nil || r.Seq != 0 {
		t.Fatalf("refund of an unpaid charge: %v, seq %d; want a no-op", err, r.Seq)
	}
	if n := len(exactLedger(t, db, dev)); n != 5 {
		t.Fatalf("%d entries after the refund of an unpaid charge, want 5", n)
	}
}

// TestDeferredChargesTwoInstances: two instances charge one account
// concurrently until it runs out. The balance ends at zero, the ledger is
// exact, and every charge accepted is either in the ledger or unpaid.
func TestDeferredChargesTwoInstances(t *testing.T) {
	ctx := context.Background()
	a := openTest(t, Options{})
	b := openTest(t, Options{Schema: a.schema})
	const balance = 400
	dev := newFunded(t, a, balance)
	var accepted atomic.Int64
	var wg sync.WaitGroup
	for _, db := range []*DB{a, b} {
		for range 8 {
			wg.Go(func() {
				for {
					err := db.Apply(ctx, chargeOf(dev, 1))
					if cairn.IsCode(err, cairn.EPAYMENT) {
						return
					} else if err != nil {
						t.Error(err)
						return
					}
					accepted.Add(1)
				}
			})
		}
	}
	wg.Wait()
	a.Close()
	b.Close()
	check := openTest(t, Options{Schema: a.schema})
	es := exactLedger(t, check, dev)
	charged := int64(len(es) - 1)
	na, ca := a.UnpaidCharges()
	nb, cb := b.UnpaidCharges()
	t.Logf("%d accepted: %d charged, %d+%d unpaid", accepted.Load(), charged, na, nb)
	if ca > maxDeferredCredits || cb > maxDeferredCredits {
		t.Fatalf("unpaid credits %d and %d, beyond the bound %d", ca, cb, maxDeferredCredits)
	}
	if es[len(es)-1].BalanceAfter != 0 || charged != balance {
		t.Fatalf("%d charged, balance %d; want %d, 0", charged, es[len(es)-1].BalanceAfter, balance)
	}
	if charged+int64(na+nb) != accepted.Load() {
		t.Fatalf("%d charged + %d unpaid != %d accepted", charged, na+nb, accepted.Load())
	}
}

// TestDeferredChargesCountDebitsInFlight: while a debit sent to the
// database is unanswered (here held by another connection's lock of the
// developer row), charges are accepted as if it were taken.
func TestDeferredChargesCountDebitsInFlight(t *testing.T) {
	ctx := context.Background()
	db, other := openDeferring(t)
	dev := newFunded(t, db, deferFloor+100)
	tx, err := other.pool.Begin(ctx)
	if err != nil {
		t.Fatal(err)
	}
	defer tx.Rollback(ctx)
	if _, err := tx.Exec(ctx, "SELECT 1 FROM developers WHERE id = $1 FOR UPDATE", dev); err != nil {
		t.Fatal(err)
	}
	debit := chargeOf(dev, 95)
	debit.UniqueKey = "k/" + cairn.NewID() // never deferred
	done := make(chan error, 1)
	go func() { done <- db.Apply(ctx, debit) }()
	for {
		db.deferred.mu.Lock()
		syncing := db.deferred.accts[dev].syncing
		db.deferred.mu.Unlock()
		if syncing == -95 {
			break
		}
		time.Sleep(time.Millisecond)
	}
	if c := db.prepareEntry(chargeOf(dev, 10)); db.deferCharge(&c) {
		t.Fatal("a charge deferred against the balance before a debit in flight")
	}
	if c := db.prepareEntry(chargeOf(dev, 5)); !db.deferCharge(&c) {
		t.Fatal("a charge that fits beside the debit in flight not deferred")
	}
	if err := tx.Rollback(ctx); err != nil {
		t.Fatal(err)
	}
	if err := receive(t, done, "the debit"); err != nil {
		t.Fatal(err)
	}
	if es := exactLedger(t, db, dev); len(es) != 3 || es[2].BalanceAfter != deferFloor {
		t.Fatalf("%d entries, want the grant, the debit and the charge", len(es))
	}
}

// TestDeferredChargesClose: Close applies the charges still waiting.
func TestDeferredChargesClose(t *testing.T) {
	ctx := context.Background()
	db := openTest(t, Options{ChargeDefer: time.Hour})
	db.deferred.freshFor = time.Hour
	dev := newFunded(t, db, deferFloor+10)
	for range 3 {
		if err := db.Apply(ctx, chargeOf(dev, 2)); err != nil {
			t.Fatal(err)
		}
	}
	other := openTest(t, Options{Schema: db.schema, ChargeDefer: -1})
	if n := ledgerRows(t, other, dev); n != 1 {
		t.Fatalf("%d rows before Close, want 1", n)
	}
	db.Close()
	if es := exactLedger(t, other, dev); len(es) != 4 || es[3].BalanceAfter != deferFloor+4 {
		t.Fatalf("after Close: %d entries, want 4 ending at 4", len(es))
	}
}
