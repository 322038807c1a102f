package billing_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store/pebble"
)

func TestRefundable(t *testing.T) {
	for status, want := range map[int]bool{
		200: false, 201: false, 206: false, 400: true, 401: false, 402: false, 404: false, 409: false,
		412: false, 413: true, 415: true, 416: true, 422: true, 429: false, 500: true, 502: true, 503: true,
	} {
		if billing.Refundable(status) != want {
			t.Errorf("Refundable(%d) = %v, want %v", status, !want, want)
		}
	}
}

// billFixture is a biller over a real store, with one developer holding
// 100 credits and the default prices.
type billFixture struct {
	db     *pebble.DB
	biller *billing.Biller
	dev    string
	clock  *cairn.ManualClock
}

func newBillFixture(t *testing.T) *billFixture {
	t.Helper()
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	t.Cleanup(func() { _ = db.Close() })
	clock := cairn.NewManualClock(time.Date(2026, 3, 1, 12, 0, 0, 0, time.UTC))
	pricing, err := billing.NewPricing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	dev := &cairn.Developer{ID: cairn.NewID()}
	agent := &cairn.Agent{ID: cairn.NewID(), DeveloperID: dev.ID, KeyHash: []byte(cairn.NewID())}
	if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 100}); err != nil {
		t.Fatal(err)
	}
	statusOf := func(err error) int {
		switch cairn.ErrorCode(err) {
		case cairn.ENOTFOUND:
			return http.StatusNotFound
		case cairn.EINVALID:
			return http.StatusBadRequest
		}
		return http.StatusInternalServerError
	}
	b := &billing.Biller{Ledger: &billing.Ledger{Store: db, Clock: clock}, Pricing: pricing, Settled: db,
		StatusOf: statusOf, Clock: clock, Logger: slog.New(slog.NewTextHandler(io.Discard, nil))}
	return &billFixture{db: db, biller: b, dev: dev.ID, clock: clock}
}

func (f *billFixture) balance(t *testing.T) int64 {
	t.Helper()
	bal, err := f.biller.Ledger.Balance(context.Background(), f.dev)
	if err != nil {
		t.Fatal(err)
	}
	return bal
}

func (f *billFixture) settled(t *testing.T) []string {
	t.Helper()
	var ids []string
	if err := f.db.SettledSince(context.Background(), time.Time{}, func(id string) bool { ids = append(ids, id); return true }); err != nil {
		t.Fatal(err)
	}
	return ids
}

// TestBillSettlesByStatus: a request's charges stand on 2xx, are refunded
// on a refundable status, and stand marked settled on a 404 of a
// recoverable write (not of a read).
func TestBillSettlesByStatus(t *testing.T) {
	ctx := context.Background()
	for _, tc := range []struct {
		op          string
		status      int
		balance     int64
		settledMark int
	}{
		{billing.OpMemoryWrite, 201, 95, 0},
		{billing.OpMemoryWrite, 422, 100, 0},
		{billing.OpMemoryWrite, 500, 100, 0},
		{billing.OpMemoryWrite, 404, 95, 1},
		{billing.OpMemoryRead, 404, 99, 0},
		{billing.OpMemoryRead, 429, 99, 0},
	} {
		f := newBillFixture(t)
		bl := f.biller.Open(f.dev, "", "req-1")
		if err := bl.Charge(ctx, tc.op); err != nil {
			t.Fatal(err)
		}
		bl.Settle(ctx, tc.status)
		if got := f.balance(t); got != tc.balance {
			t.Errorf("%s settled with %d: balance %d, want %d", tc.op, tc.status, got, tc.balance)
		}
		if got := len(f.settled(t)); got != tc.settledMark {
			t.Errorf("%s settled with %d: %d settled marks, want %d", tc.op, tc.status, got, tc.settledMark)
		}
	}
}

// TestBillItems: each item of a bulk request is billed as a request of its
// own; settling the request afterwards changes nothing for a 2xx, and a
// refundable status still gives back what is left on the bill.
func TestBillItems(t *testing.T) {
	ctx := context.Background()
	f := newBillFixture(t)
	bl := f.biller.Open(f.dev, "", "req-bulk")
	ran := 0
	item := func(err error) func() error { return func() error { ran++; return err } }
	if err := bl.Item(ctx, billing.OpBulkWrite, item(nil)); err != nil {
		t.Fatal(err)
	}
	if err := bl.Item(ctx, billing.OpBulkWrite, item(cairn.Errorf(cairn.EINVALID, "bad item"))); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("invalid item: %v", err)
	}
	if err := bl.Item(ctx, billing.OpMemoryDelete, item(cairn.Errorf(cairn.ENOTFOUND, "gone"))); !cairn.IsCode(err, cairn.ENOTFOUND) {
		t.Fatalf("missing item: %v", err)
	}
	if err := bl.Item(ctx, "unpriced", item(cairn.Errorf(cairn.EINVALID, "free and bad"))); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("free item: %v", err)
	}
	if ran != 4 {
		t.Fatalf("%d items ran, want 4", ran)
	}
	// 100 - 5 (written) - 5 + 5 (refunded, 400) - 2 (kept, 404) = 93.
	if got := f.balance(t); got != 93 {
		t.Fatalf("balance after the items %d, want 93", got)
	}
	if got := f.settled(t); len(got) != 1 {
		t.Fatalf("settled marks %v, want the 404 delete's charge", got)
	}
	bl.Settle(ctx, 200)
	if got := f.balance(t); got != 93 {
		t.Fatalf("balance after settling 200: %d, want 93", got)
	}

	// A request whose response is a 5xx gives back its items' charges too,
	// once (a refunded item is off the bill).
	bl = f.biller.Open(f.dev, "", "req-bulk-2")
	_ = bl.Item(ctx, billing.OpBulkWrite, item(nil))
	_ = bl.Item(ctx, billing.OpBulkWrite, item(cairn.Errorf(cairn.EINVALID, "bad")))
	bl.Settle(ctx, 503)
	if got := f.balance(t); got != 93 {
		t.Fatalf("balance after a 503 bulk request: %d, want 93", got)
	}
}

// TestBillerCheckpoint: SettledBefore is the start of the oldest bill not
// yet settled, and now when none is open.
func TestBillerCheckpoint(t *testing.T) {
	f := newBillFixture(t)
	t0 := f.clock.Now()
	first := f.biller.Open(f.dev, "", "a")
	f.clock.Advance(time.Second)
	second := f.biller.Open(f.dev, "", "b")
	f.clock.Advance(time.Second)
	if got := f.biller.SettledBefore(); !got.Equal(t0) {
		t.Fatalf("checkpoint %v with two open bills, want the first's start %v", got, t0)
	}
	first.Settle(context.Background(), 200)
	if got := f.biller.SettledBefore(); !got.Equal(t0.Add(time.Second)) {
		t.Fatalf("checkpoint %v after the first settled, want the second's start", got)
	}
	second.Settle(context.Background(), 200)
	if got := f.biller.SettledBefore(); !got.Equal(f.clock.Now()) {
		t.Fatalf("checkpoint %v with none open, want now", got)
	}
	if ids := f.settled(t); len(ids) != 0 {
		t.Fatalf("free requests left settled marks %v", ids)
	}
}
