package storetest

import (
	"sync"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// parallel runs fn(0..n-1) on n goroutines released together and waits.
func parallel(n int, fn func(i int)) {
	var wg sync.WaitGroup
	start := make(chan struct{})
	for i := 0; i < n; i++ {
		wg.Go(func() {
			<-start
			fn(i)
		})
	}
	close(start)
	wg.Wait()
}

// succeeded counts the nil errors of errs, failing the test on an error
// whose code is not code (what a lost race may answer).
func succeeded(t *testing.T, what string, errs []error, code string) int {
	t.Helper()
	n := 0
	for _, err := range errs {
		if err == nil {
			n++
		} else if !cairn.IsCode(err, code) {
			t.Fatalf("%s: %v", what, err)
		}
	}
	return n
}

// charges fires one concurrent charge per cost at devID and returns which
// succeeded. Every failure must be EPAYMENT.
func charges(t *testing.T, s store.Store, devID string, costs []int64) []bool {
	t.Helper()
	ok := make([]bool, len(costs))
	errs := make([]error, len(costs))
	parallel(len(costs), func(i int) {
		errs[i] = s.Apply(ctx, charge(devID, costs[i]))
		ok[i] = errs[i] == nil
	})
	for i, err := range errs {
		if err != nil && !cairn.IsCode(err, cairn.EPAYMENT) {
			t.Fatalf("charge %d of %d: %v, want success or %s", i, costs[i], err, cairn.EPAYMENT)
		}
	}
	return ok
}

var ledgerConcurrencyTests = []test{
	{"ChargesVaryingAmounts", func(t *testing.T, s store.Store) {
		const start = 1000
		dev, _ := createAccount(t, s, start)
		costs := make([]int64, 200) // 1..20 credits, about 2100 in all
		for i := range costs {
			costs[i] = 1 + int64(i*7)%20
		}
		ok := charges(t, s, dev.ID, costs)
		var spent int64
		var n int
		for i, c := range costs {
			if ok[i] {
				spent += c
				n++
			}
		}
		entries := checkLedger(t, s, dev.ID)
		d, err := s.Developer(ctx, dev.ID)
		mustOK(t, err, "Developer")
		if spent > start || d.Balance != start-spent {
			t.Fatalf("spent %d of %d; balance %d, want %d", spent, start, d.Balance, start-spent)
		}
		if len(entries) != 1+n {
			t.Fatalf("ledger has %d entries, want the grant and %d charges", len(entries), n)
		}
		// The balance only fell, so a refused charge never fitted: each one
		// costs more than what is left. Anything else means a charge was
		// refused that the balance allowed.
		for i, c := range costs {
			if !ok[i] && c <= d.Balance {
				t.Fatalf("charge of %d refused with %d credits left", c, d.Balance)
			}
		}
	}},
	{"ChargesExactCount", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 1000)
		costs := make([]int64, 200)
		for i := range costs {
			costs[i] = 7
		}
		n := 0
		for _, o := range charges(t, s, dev.ID, costs) {
			if o {
				n++
			}
		}
		if n != 1000/7 {
			t.Fatalf("%d charges of 7 succeeded on 1000 credits, want %d", n, 1000/7)
		}
		wantBalance(t, s, dev.ID, 1000%7)
		checkLedger(t, s, dev.ID)
	}},
	{"ChargesManyDevelopers", func(t *testing.T, s store.Store) {
		const devs, each = 8, 40
		ids := make([]string, devs)
		for i := range ids {
			d, _ := createAccount(t, s, 100)
			ids[i] = d.ID
		}
		errs := make([]error, devs*each)
		parallel(devs*each, func(i int) { errs[i] = s.Apply(ctx, charge(ids[i%devs], 3)) })
		succeeded(t, "Apply", errs, cairn.EPAYMENT)
		for _, id := range ids {
			if n := len(checkLedger(t, s, id)); n != 1+100/3 {
				t.Fatalf("developer %s has %d entries, want %d", id, n, 1+100/3)
			}
			wantBalance(t, s, id, 100%3)
		}
	}},
	{"ChargesAndRefunds", func(t *testing.T, s store.Store) {
		dev, _ := createAccount(t, s, 50)
		var mu sync.Mutex
		var charged, refunded int64
		parallel(150, func(i int) {
			e := charge(dev.ID, 5)
			if i%3 == 0 {
				e.Kind, e.Amount = cairn.LedgerRefund, 5
			}
			err := s.Apply(ctx, e)
			if err != nil && !cairn.IsCode(err, cairn.EPAYMENT) {
				t.Errorf("Apply: %v", err)
			}
			mu.Lock()
			if err == nil && e.Amount < 0 {
				charged += 5
			} else if err == nil {
				refunded += 5
			}
			mu.Unlock()
		})
		if refunded != 50*5 {
			t.Fatalf("refunded %d, want every refund (250)", refunded)
		}
		checkLedger(t, s, dev.ID)
		wantBalance(t, s, dev.ID, 50-charged+refunded)
	}},
	{"UniqueKeyOnce", func(t *testing.T, s store.Store) {
		ids := make([]string, 4)
		for i := range ids {
			d, _ := createAccount(t, s, 0)
			ids[i] = d.ID
		}
		errs := make([]error, 40)
		parallel(len(errs), func(i int) {
			errs[i] = s.Apply(ctx, &cairn.LedgerEntry{
				ID: cairn.NewID(), DeveloperID: ids[i%len(ids)], Kind: cairn.LedgerDeposit,
				Operation: "deposit", Amount: 100, UniqueKey: "aptos:0xabc",
			})
		})
		n := succeeded(t, "Apply", errs, cairn.ECONFLICT)
		var total int64
		for _, id := range ids {
			for _, e := range checkLedger(t, s, id) {
				total += e.Amount
			}
		}
		if n != 1 || total != 100 {
			t.Fatalf("%d deposits credited, %d credits in all; want 1 and 100", n, total)
		}
	}},
}
