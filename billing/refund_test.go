package billing_test

import (
	"context"
	"errors"
	"os"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store"
	"github.com/cairn-dev/cairn/store/postgres"
	"github.com/cairn-dev/cairn/store/postgres/pgtest"
)

// lostAck is a store whose next refund commits but reports a failure, as a
// database does when the connection drops after COMMIT and before its
// answer: the caller cannot tell whether the refund was written.
type lostAck struct {
	store.Store
	drop int
}

func (s *lostAck) Apply(ctx context.Context, e *cairn.LedgerEntry) error {
	err := s.Store.Apply(ctx, e)
	if err == nil && e.Kind == cairn.LedgerRefund && s.drop > 0 {
		s.drop--
		return errors.New("connection reset after commit")
	}
	return err
}

// TestRefundRetryIsIdempotent: Refund retries a failed write, and a retry
// after a write that did commit must not refund the charge a second time
// (a unique key per refunded charge), on both stores.
func TestRefundRetryIsIdempotent(t *testing.T) {
	stores := map[string]func(t *testing.T) store.Store{
		"Pebble": func(t *testing.T) store.Store { return openDB(t, t.TempDir()) },
	}
	if os.Getenv("CAIRN_TEST_POSTGRES_URL") != "" {
		stores["Postgres"] = func(t *testing.T) store.Store {
			url := pgtest.URL(t)
			db, err := postgres.Open(context.Background(), url, postgres.Options{Schema: pgtest.Schema(t, url)})
			if err != nil {
				t.Fatal(err)
			}
			return db
		}
	}
	for name, open := range stores {
		t.Run(name, func(t *testing.T) {
			ctx := context.Background()
			db := open(t)
			defer db.Close()
			dev := &cairn.Developer{ID: cairn.NewID()}
			agent := &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte(cairn.NewID())}
			if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 100}); err != nil {
				t.Fatal(err)
			}
			s := &lostAck{Store: db, drop: 1}
			l := &billing.Ledger{Store: s, Clock: cairn.SystemClock{}}
			ch, err := l.Charge(ctx, dev.ID, agent.ID, billing.OpMemoryWrite, 5, "req-1")
			if err != nil {
				t.Fatal(err)
			}
			if _, err := l.Refund(ctx, ch, 0, "req-1"); err != nil {
				t.Fatalf("Refund: %v", err)
			}
			// A second refund of the same charge (a retried settlement) is a no-op too.
			if _, err := l.Refund(ctx, ch, 0, "req-1"); err != nil {
				t.Fatalf("Refund again: %v", err)
			}
			d, err := db.Developer(ctx, dev.ID)
			if err != nil || d.Balance != 100 {
				t.Fatalf("balance %d, %v; want 100: the charge refunded exactly once", d.Balance, err)
			}
		})
	}
}

// TestRefundOfUnpaidChargeMovesNothing: on PostgreSQL a deferred charge
// that another instance's spending left uncovered is dropped unpaid; its
// refund (its request failed) must then neither credit the account nor
// count as a refund.
func TestRefundOfUnpaidChargeMovesNothing(t *testing.T) {
	url := pgtest.URL(t)
	ctx := context.Background()
	schema := pgtest.Schema(t, url)
	db, err := postgres.Open(ctx, url, postgres.Options{Schema: schema, ChargeDefer: time.Hour}) // applied when read
	if err != nil {
		t.Fatal(err)
	}
	defer db.Close()
	other, err := postgres.Open(ctx, url, postgres.Options{Schema: schema, ChargeDefer: -1})
	if err != nil {
		t.Fatal(err)
	}
	defer other.Close()
	dev := &cairn.Developer{ID: cairn.NewID()}
	agent := &cairn.Agent{ID: cairn.NewID(), KeyHash: []byte(cairn.NewID())}
	if err := db.CreateAccount(ctx, dev, agent, &cairn.LedgerEntry{Kind: cairn.LedgerGrant, Operation: "starter", Amount: 100}); err != nil {
		t.Fatal(err)
	}
	var refunds int64
	l := &billing.Ledger{Store: db, Clock: cairn.SystemClock{}, OnRefund: func(_ string, n int64) { refunds += n }}
	if _, err := l.Charge(ctx, dev.ID, agent.ID, billing.OpMemoryRead, 1, "req-1"); err != nil { // applied: the balance is now known
		t.Fatal(err)
	}
	ch, err := l.Charge(ctx, dev.ID, agent.ID, billing.OpMemoryWrite, 5, "req-2")
	if err != nil || ch.Seq != 0 {
		t.Fatalf("second charge: %v, seq %d; want it deferred", err, ch.Seq)
	}
	spend := &cairn.LedgerEntry{DeveloperID: dev.ID, Kind: cairn.LedgerCharge, Operation: billing.OpMemoryWrite, Amount: -97}
	if err := other.Apply(ctx, spend); err != nil { // 2 left: the deferred 5 no longer fits
		t.Fatal(err)
	}
	if d, err := db.Developer(ctx, dev.ID); err != nil || d.Balance != 2 {
		t.Fatalf("balance %+v, %v; want 2 (the deferred charge unpaid)", d, err)
	}
	if n, _ := db.UnpaidCharges(); n != 1 {
		t.Fatalf("%d unpaid charges, want 1", n)
	}
	if _, err := l.Refund(ctx, ch, 0, "req-2"); err != nil {
		t.Fatal(err)
	}
	if d, err := db.Developer(ctx, dev.ID); err != nil || d.Balance != 2 {
		t.Fatalf("balance after the refund %+v, %v; want 2: the unpaid charge's refund credits nothing", d, err)
	}
	if refunds != 0 {
		t.Fatalf("%d credits counted as refunded, want 0", refunds)
	}
}
