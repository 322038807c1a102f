package pebble

import (
	"context"
	"fmt"
	"math/rand/v2"
	"sync"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cockroachdb/pebble/v2/vfs"
)

var bg = context.Background()

// newDev creates a developer with balance credits (a starter grant) and
// one agent.
func newDev(t *testing.T, db *DB, id string, balance int64) {
	t.Helper()
	idx, err := db.NextDepositIndex(bg)
	if err != nil {
		t.Fatal(err)
	}
	a := &cairn.Agent{ID: cairn.NewID(), DeveloperID: id, Name: "a", KeyHash: []byte(cairn.NewID()),
		DepositIndex: idx, DepositAddress: fmt.Sprintf("0x%064x", idx)}
	var g *cairn.LedgerEntry
	if balance > 0 {
		g = &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: balance}
	}
	if err := db.CreateAccount(bg, &cairn.Developer{ID: id}, a, g); err != nil {
		t.Fatal(err)
	}
}

// sameStripe returns n fresh developer ids whose stripe is that of first.
func sameStripe(db *DB, first string, n int) []string {
	var ids []string
	for len(ids) < n {
		if id := cairn.NewID(); db.stripeIndex(id) == db.stripeIndex(first) {
			ids = append(ids, id)
		}
	}
	return ids
}

func streamCharge(devID string) *cairn.LedgerEntry {
	return &cairn.LedgerEntry{ID: cairn.NewID(), DeveloperID: devID, Kind: cairn.LedgerCharge,
		Operation: "media.stream", Amount: -1, RequestID: cairn.NewID()}
}

// storedBalance is the developer's balance as pebble holds it, without the
// buffered charges.
func storedBalance(t *testing.T, db *DB, id string) int64 {
	t.Helper()
	var d cairn.Developer
	if ok, err := db.getJSON(devKey(id), &d); err != nil || !ok {
		t.Fatalf("developer record: %v %v", ok, err)
	}
	return d.Balance
}

// checkLedger fails unless the developer's ledger is seq 1..n without a
// gap, each balanceAfter is the running sum and never negative, and the
// balance is the sum. It returns the entries, oldest first.
func checkLedger(t *testing.T, db *DB, devID string) []cairn.LedgerEntry {
	t.Helper()
	d, err := db.Developer(bg, devID)
	if err != nil {
		t.Fatalf("Developer: %v", err)
	}
	newest, err := db.Transactions(bg, devID, 0, 1<<20)
	if err != nil {
		t.Fatalf("Transactions: %v", err)
	}
	var sum int64
	entries := make([]cairn.LedgerEntry, len(newest))
	for i, e := range newest {
		entries[len(newest)-1-i] = e
	}
	for i, e := range entries {
		sum += e.Amount
		if e.Seq != uint64(i+1) || e.BalanceAfter != sum || sum < 0 {
			t.Fatalf("entry %d: seq %d, balanceAfter %d; want seq %d, balanceAfter %d (>= 0)", i, e.Seq, e.BalanceAfter, i+1, sum)
		}
	}
	if d.Balance != sum || d.LedgerSeq != uint64(len(entries)) {
		t.Fatalf("balance %d, ledgerSeq %d; the ledger sums to %d over %d entries", d.Balance, d.LedgerSeq, sum, len(entries))
	}
	return entries
}

// TestChargesBuffered: charges are checked against the balance net of the
// buffered ones (no overdraft, one seq each), stay in memory until a flush,
// and every read of a balance or a ledger, every other ledger entry and
// every synced write of the store writes them first.
func TestChargesBuffered(t *testing.T) {
	dir := t.TempDir()
	db, err := Open(dir, Options{ChargeFlush: time.Hour}) // flushed only on demand
	if err != nil {
		t.Fatal(err)
	}
	defer func() { db.Close() }()
	ids := sameStripe(db, cairn.NewID(), 2)
	a, b := ids[0], ids[1]
	newDev(t, db, a, 10)
	newDev(t, db, b, 3)
	inPebble := func(id string) int64 { return storedBalance(t, db, id) }

	var wg sync.WaitGroup
	var mu sync.Mutex
	got := map[string][2]int{} // developer: successes, refusals
	for _, id := range []string{a, a, a, a, a, a, a, a, a, a, a, a, b, b, b, b, b} {
		wg.Go(func() {
			e := streamCharge(id)
			err := db.Apply(bg, e)
			mu.Lock()
			defer mu.Unlock()
			n := got[id]
			switch {
			case err == nil:
				if e.Seq < 2 || e.BalanceAfter < 0 {
					t.Errorf("charge returned seq %d, balanceAfter %d", e.Seq, e.BalanceAfter)
				}
				n[0]++
			case cairn.IsCode(err, cairn.EPAYMENT):
				n[1]++
			default:
				t.Errorf("charge: %v", err)
			}
			got[id] = n
		})
	}
	wg.Wait()
	if got[a] != [2]int{10, 2} || got[b] != [2]int{3, 2} {
		t.Fatalf("successes and refusals: a %v, b %v; want [10 2] and [3 2]", got[a], got[b])
	}
	if err := db.Apply(bg, streamCharge(cairn.NewID())); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("charge of an unknown developer: %v, want %s", err, cairn.ENOTFOUND)
	}
	if inPebble(a) != 10 || inPebble(b) != 3 {
		t.Fatalf("balances in pebble %d and %d before a flush, want 10 and 3 (charges buffered)", inPebble(a), inPebble(b))
	}
	// A read of the balance writes the buffer.
	if d, err := db.Developer(bg, a); err != nil || d.Balance != 0 || inPebble(b) != 0 {
		t.Fatalf("Developer: %+v %v; b in pebble %d; want 0 and 0", d, err, inPebble(b))
	}
	if n := len(checkLedger(t, db, a)); n != 11 {
		t.Fatalf("a has %d ledger entries, want 11", n)
	}
	if n := len(checkLedger(t, db, b)); n != 4 {
		t.Fatalf("b has %d ledger entries, want 4", n)
	}

	// A credit reads the balance from pebble after the buffer is written:
	// the charges before it count, and a charge after it sees it.
	e := streamCharge(a)
	if err := db.Apply(bg, e); !cairn.IsCode(err, cairn.EPAYMENT) {
		t.Fatalf("charge on 0 credits: %v", err)
	}
	mustApply := func(e *cairn.LedgerEntry) {
		t.Helper()
		if err := db.Apply(bg, e); err != nil {
			t.Fatalf("Apply %s: %v", e.Kind, err)
		}
	}
	mustApply(&cairn.LedgerEntry{DeveloperID: b, Kind: cairn.LedgerGrant, Operation: "admin.grant", Amount: 2})
	mustApply(streamCharge(b))
	charge := streamCharge(b)
	mustApply(charge)
	if inPebble(b) != 2 {
		t.Fatalf("b in pebble %d after the grant, want 2", inPebble(b))
	}
	refund := &cairn.LedgerEntry{DeveloperID: b, Kind: cairn.LedgerRefund, Operation: "media.stream", Amount: 1,
		RefID: charge.ID, UniqueKey: "refund/" + charge.ID}
	mustApply(refund)
	if inPebble(b) != 1 || refund.BalanceAfter != 1 || refund.Seq != 8 {
		t.Fatalf("refund: seq %d, balanceAfter %d, in pebble %d; want 8, 1, 1", refund.Seq, refund.BalanceAfter, inPebble(b))
	}
	checkLedger(t, db, b)

	// Any synced write of the store writes the buffer first.
	mustApply(streamCharge(b))
	if inPebble(b) != 1 {
		t.Fatal("charge not buffered")
	}
	if err := db.PutSetting(bg, "x", []byte("1")); err != nil {
		t.Fatal(err)
	}
	if inPebble(b) != 0 {
		t.Fatalf("b in pebble %d after a synced write, want 0", inPebble(b))
	}

	// Close writes the buffer, and what each charge returned is what is
	// stored.
	mustApply(&cairn.LedgerEntry{DeveloperID: a, Kind: cairn.LedgerGrant, Operation: "admin.grant", Amount: 5})
	var charges []*cairn.LedgerEntry
	for range 3 {
		charges = append(charges, streamCharge(a))
		mustApply(charges[len(charges)-1])
	}
	if inPebble(a) != 5 {
		t.Fatal("charges not buffered")
	}
	if err := db.Close(); err != nil {
		t.Fatal(err)
	}
	if err := db.Apply(bg, streamCharge(a)); !cairn.IsCode(err, cairn.EUNAVAILABLE) {
		t.Fatalf("charge after Close: %v, want %s", err, cairn.EUNAVAILABLE)
	}
	if db, err = Open(dir, Options{}); err != nil {
		t.Fatal(err)
	}
	stored := checkLedger(t, db, a)
	if len(stored) != 15 {
		t.Fatalf("%d entries after reopening, want 15", len(stored))
	}
	for i, c := range charges {
		if stored[12+i] != *c {
			t.Fatalf("charge returned %+v, stored %+v", *c, stored[12+i])
		}
	}
}

// TestChargesFlushed: without a read or a synced write, the buffer goes to
// pebble when it is full, and on the timer.
func TestChargesFlushed(t *testing.T) {
	inPebble := func(db *DB, id string) int64 { return storedBalance(t, db, id) }
	open := func(t *testing.T, flush time.Duration, balance int64) (*DB, string) {
		db, err := Open(t.TempDir(), Options{ChargeFlush: flush})
		if err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { db.Close() })
		id := cairn.NewID()
		newDev(t, db, id, balance)
		return db, id
	}
	t.Run("Full", func(t *testing.T) {
		db, id := open(t, time.Hour, 10000)
		for i := 1; i <= maxBufferedCharges; i++ {
			if err := db.Apply(bg, streamCharge(id)); err != nil {
				t.Fatal(err)
			}
			if want := int64(10000 - i/maxBufferedCharges*maxBufferedCharges); inPebble(db, id) != want {
				t.Fatalf("after %d charges %d credits in pebble, want %d", i, inPebble(db, id), want)
			}
		}
	})
	t.Run("Timer", func(t *testing.T) {
		db, id := open(t, time.Millisecond, 10)
		if err := db.Apply(bg, streamCharge(id)); err != nil {
			t.Fatal(err)
		}
		for deadline := time.Now().Add(20 * time.Second); inPebble(db, id) != 9; time.Sleep(time.Millisecond) {
			if time.Now().After(deadline) {
				t.Fatal("the buffered charge never reached pebble")
			}
		}
	})
}

// TestChargesConcurrent runs charges of developers sharing a stripe and of
// others, refunds and grants (committed with a sync) at once: every
// balance is the sum of its ledger, no balance went below zero, and
// exactly the charges the balance covered succeeded.
func TestChargesConcurrent(t *testing.T) {
	db, err := Open(t.TempDir(), Options{})
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	ids := append(sameStripe(db, cairn.NewID(), 3), cairn.NewID(), cairn.NewID())
	const start, grants, workers, each = 300, 20, 8, 50
	for _, id := range ids {
		newDev(t, db, id, start)
	}
	var mu sync.Mutex
	ok := map[string]int64{}
	var wg sync.WaitGroup
	for _, id := range ids {
		wg.Go(func() {
			for range grants {
				e := &cairn.LedgerEntry{DeveloperID: id, Kind: cairn.LedgerGrant, Operation: "admin.grant", Amount: 1}
				if err := db.Apply(bg, e); err != nil {
					t.Errorf("grant: %v", err)
				}
			}
		})
		for range workers {
			wg.Go(func() {
				for range each {
					err := db.Apply(bg, streamCharge(id))
					if err != nil && !cairn.IsCode(err, cairn.EPAYMENT) {
						t.Errorf("charge: %v", err)
					}
					if err == nil {
						mu.Lock()
						ok[id]++
						mu.Unlock()
					}
				}
			})
		}
	}
	wg.Wait()
	for _, id := range ids {
		entries := checkLedger(t, db, id)
		if len(entries) != 1+grants+int(ok[id]) {
			t.Fatalf("%d ledger entries, want the starter grant, %d grants and %d charges", len(entries), grants, ok[id])
		}
		// What is left is exactly what the charges did not spend.
		left := int64(0)
		for ; db.Apply(bg, streamCharge(id)) == nil; left++ {
		}
		if ok[id]+left != start+grants {
			t.Fatalf("%d charges succeeded and %d credits were left, want %d in all", ok[id], left, start+grants)
		}
		checkLedger(t, db, id)
	}
}

// TestChargesCrash takes a crash image of the files while combined charges
// and synced grants run, opens it and checks the ledgers: each balance is
// the sum of its ledger (a batch is atomic), the entries are a prefix of
// what was applied (a lost charge is one of the newest), and every entry
// applied before a synced write that returned is there.
func TestChargesCrash(t *testing.T) {
	for seed := range uint64(4) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			fs := vfs.NewCrashableMem()
			db, err := Open("db", Options{fs: fs})
			if err != nil {
				t.Fatal(err)
			}
			defer db.Close()
			ids := append(sameStripe(db, cairn.NewID(), 2), cairn.NewID())
			for _, id := range ids {
				newDev(t, db, id, 1000)
			}
			var mu sync.Mutex
			applied := map[string]map[uint64]string{} // developer: seq: entry id
			synced := map[string]uint64{}             // developer: seq of its last synced entry
			for _, id := range ids {
				applied[id] = map[uint64]string{}
			}
			record := func(e *cairn.LedgerEntry, sync bool) {
				mu.Lock()
				defer mu.Unlock()
				applied[e.DeveloperID][e.Seq] = e.ID
				if sync {
					synced[e.DeveloperID] = max(synced[e.DeveloperID], e.Seq)
				}
			}
			var wg sync.WaitGroup
			stop := make(chan struct{})
			for _, id := range ids {
				for w := range 4 {
					wg.Go(func() {
						for i := 0; ; i++ {
							select {
							case <-stop:
								return
							default:
							}
							e := streamCharge(id)
							if w == 0 && i%10 == 9 {
								e = &cairn.LedgerEntry{DeveloperID: id, Kind: cairn.LedgerGrant, Operation: "admin.grant", Amount: 1}
							}
							if err := db.Apply(bg, e); err != nil {
								if !cairn.IsCode(err, cairn.EPAYMENT) {
									t.Errorf("Apply: %v", err)
								}
								continue
							}
							record(e, e.Amount > 0)
						}
					})
				}
			}
			time.Sleep(50 * time.Millisecond)
			mu.Lock()
			wantSynced := map[string]uint64{}
			for id, s := range synced {
				wantSynced[id] = s
			}
			mu.Unlock()
			crashed := fs.CrashClone(vfs.CrashCloneCfg{UnsyncedDataPercent: int(seed * 30), RNG: rand.New(rand.NewPCG(seed, 1))})
			close(stop)
			wg.Wait()

			db2, err := Open("db", Options{fs: crashed})
			if err != nil {
				t.Fatalf("open the crash image: %v", err)
			}
			defer db2.Close()
			for _, id := range ids {
				entries := checkLedger(t, db2, id)
				if uint64(len(entries)) < wantSynced[id] {
					t.Fatalf("%d entries after the crash; the synced entry %d was lost", len(entries), wantSynced[id])
				}
				mu.Lock()
				for _, e := range entries[1:] {
					if applied[id][e.Seq] != e.ID {
						t.Errorf("entry %d after the crash is %s, applied %s", e.Seq, e.ID, applied[id][e.Seq])
					}
				}
				mu.Unlock()
			}
		})
	}
}
