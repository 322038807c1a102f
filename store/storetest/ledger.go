package storetest

import (
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

var ledgerTests = []test{
	{"Apply/OK", func(t *testing.T, s store.Store) {
		dev, a := createAccount(t, s, 100)
		c := charge(dev.ID, 5)
		c.AgentID = a.ID
		mustOK(t, s.Apply(ctx, c), "Apply charge")
		wantCharged(t, c, 2, 95) // and the ledger read below holds it so
		r := &cairn.LedgerEntry{
			ID: cairn.NewID(), DeveloperID: dev.ID, AgentID: a.ID, Kind: cairn.LedgerRefund,
			Operation: "memory.write", Amount: 5, RefID: c.ID, RequestID: c.RequestID, CreatedAt: now(),
		}
		want := *r
		mustOK(t, s.Apply(ctx, r), "Apply refund")
		want.Seq, want.BalanceAfter = 3, 100
		wantEntry(t, *r, want) // a given CreatedAt is kept
		entries := checkLedger(t, s, dev.ID)
		if len(entries) != 3 {
			t.Fatalf("ledger has %d entries, want 3", len(entries))
		}
		wantEntry(t, entries[0], want)
		wantEntry(t, entries[1], *c)
	}},
	{"Apply/ChargeWholeBalance", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		mustOK(t, s.Apply(ctx, charge(dev.ID, 100)), "Apply")
		wantBalance(t, s, dev.ID, 0)
		wantCode(t, s.Apply(ctx, charge(dev.ID, 1)), cairn.EPAYMENT)
	}},
	{"Apply/ErrPayment", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		err := s.Apply(ctx, charge(dev.ID, 101))
		wantCode(t, err, cairn.EPAYMENT)
		if r, av := detailInt(t, err, "required"), detailInt(t, err, "available"); r != 101 || av != 100 {
			t.Fatalf("required %d available %d, want 101 and 100", r, av)
		}
		wantBalance(t, s, dev.ID, 100)
		if n := len(checkLedger(t, s, dev.ID)); n != 1 {
			t.Fatalf("ledger has %d entries, want 1", n)
		}
		// A failed entry leaves no gap in the sequence.
		c := charge(dev.ID, 1)
		mustOK(t, s.Apply(ctx, c), "Apply")
		wantCharged(t, c, 2, 99)
		if es := checkLedger(t, s, dev.ID); len(es) != 2 || es[0].ID != c.ID || es[0].Seq != 2 {
			t.Fatalf("ledger after the charge: %+v", es)
		}
	}},
	{"Apply/ErrUniqueKeyUsed", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		other, _ := createAccount(t, s, 100)
		deposit := func(devID string) *cairn.LedgerEntry {
			return &cairn.LedgerEntry{
				ID: cairn.NewID(), DeveloperID: devID, Kind: cairn.LedgerDeposit,
				Operation: "deposit", Amount: 50, UniqueKey: "aptos:0xfeed",
			}
		}
		mustOK(t, s.Apply(ctx, deposit(dev.ID)), "Apply deposit")
		wantCode(t, s.Apply(ctx, deposit(dev.ID)), cairn.ECONFLICT)
		wantCode(t, s.Apply(ctx, deposit(other.ID)), cairn.ECONFLICT)
		wantBalance(t, s, dev.ID, 150)
		wantBalance(t, s, other.ID, 100)
		checkLedger(t, s, dev.ID)
		checkLedger(t, s, other.ID)
		// The entry that used the key is found by it.
		e, err := s.LedgerByUniqueKey(ctx, "aptos:0xfeed")
		if err != nil || e.DeveloperID != dev.ID || e.Amount != 50 || e.Kind != cairn.LedgerDeposit || e.UniqueKey != "aptos:0xfeed" || e.Seq != 2 {
			t.Fatalf("LedgerByUniqueKey: %+v %v", e, err)
		}
		_, err = s.LedgerByUniqueKey(ctx, "aptos:0xbeef")
		wantCode(t, err, cairn.ENOTFOUND)
	}},
	{"Apply/ErrUnknownDeveloper", func(t *testing.T, s store.Store) {
		wantCode(t, s.Apply(ctx, grant(cairn.NewID(), 10)), cairn.ENOTFOUND)
	}},
	{"Transactions/Paging", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 100)
		other, _ := createAccount(t, s, 100)
		for i := 0; i < 25; i++ {
			mustOK(t, s.Apply(ctx, charge(dev.ID, 1)), "Apply")
			mustOK(t, s.Apply(ctx, charge(other.ID, 2)), "Apply")
		}
		for _, tc := range []struct {
			name          string
			before        uint64
			limit         int
			first, length uint64
		}{
			{"Newest", 0, 10, 26, 10},
			{"Second", 17, 10, 16, 10},
			{"Last", 7, 10, 6, 6},
			{"BeforeFirst", 1, 10, 0, 0},
			{"BeyondNewest", 1000, 3, 26, 3},
			{"All", 0, 100, 26, 26},
		} {
			t.Run(tc.name, func(t *testing.T) {
				page, err := s.Transactions(ctx, dev.ID, tc.before, tc.limit)
				mustOK(t, err, "Transactions")
				if uint64(len(page)) != tc.length {
					t.Fatalf("page has %d entries, want %d", len(page), tc.length)
				}
				for i, e := range page {
					if e.Seq != tc.first-uint64(i) || e.DeveloperID != dev.ID {
						t.Fatalf("entry %d is %s seq %d, want %s seq %d", i, e.DeveloperID, e.Seq, dev.ID, tc.first-uint64(i))
					}
				}
			})
		}
		checkLedger(t, s, dev.ID)
		checkLedger(t, s, other.ID)
	}},
	{"Transactions/Empty", func(t *testing.T, s store.Store) {
		d, err := s.EnsureDeveloper(ctx, cairn.NewID())
		mustOK(t, err, "EnsureDeveloper")
		page, err := s.Transactions(ctx, d.ID, 0, 10)
		mustOK(t, err, "Transactions")
		if len(page) != 0 {
			t.Fatalf("Transactions = %+v, want none", page)
		}
	}},
	{"LedgerSince", func(t *testing.T, s store.Store) {
		d1, a1 := createAccount(t, s, 100)
		d2, _ := createAccount(t, s, 100)
		t0 := now().Add(time.Hour) // after the starter grants
		var want []string
		for i, d := range []*cairn.Developer{d1, d2, d1, d2, d1} {
			c := charge(d.ID, 1)
			c.AgentID, c.CreatedAt, c.Origin = a1.ID, t0.Add(time.Duration(i)*time.Second), "instance-1"

			mustOK(t, s.Apply(ctx, c), "Apply")
			if i >= 1 {
				want = append(want, c.ID)
			}
		}
		var got []cairn.LedgerEntry
		mustOK(t, s.LedgerSince(ctx, t0.Add(time.Second), func(e *cairn.LedgerEntry) bool {
			got = append(got, *e)
			return true
		}), "LedgerSince")
		if len(got) != len(want) {
			t.Fatalf("LedgerSince returned %d entries, want %d", len(got), len(want))
		}
		for i, e := range got {
			if e.ID != want[i] || e.RequestID == "" || e.Kind != cairn.LedgerCharge || e.Seq == 0 || e.Origin != "instance-1" {
				t.Fatalf("entry %d = %+v, want id %s", i, e, want[i])
			}
		}
		n := 0
		mustOK(t, s.LedgerSince(ctx, time.Time{}, func(*cairn.LedgerEntry) bool { n++; return n < 3 }), "LedgerSince")
		if n != 3 {
			t.Fatalf("fn ran %d times after returning false, want 3", n)
		}
		n = 0
		mustOK(t, s.LedgerSince(ctx, time.Time{}, func(*cairn.LedgerEntry) bool { n++; return true }), "LedgerSince")
		if n != 7 { // two grants and five charges
			t.Fatalf("LedgerSince(zero) saw %d entries, want 7", n)
		}
	}},
}
