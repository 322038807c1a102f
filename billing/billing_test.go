package billing_test

import (
	"context"
	"fmt"
	"strconv"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/billing"
	"github.com/cairn-dev/cairn/store/pebble"
)

func openDB(t *testing.T, dir string) *pebble.DB {
	t.Helper()
	db, err := pebble.Open(dir, pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	return db
}

func TestPricingPersistsAndValidates(t *testing.T) {
	ctx := context.Background()
	dir := t.TempDir()
	db := openDB(t, dir)
	p, err := billing.NewPricing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if p.Cost(billing.OpMemoryWrite) != 5 || p.Cost("unpriced") != 0 {
		t.Fatal("defaults")
	}
	for name, bad := range map[string]map[string]int64{
		"Empty":    {},
		"Unknown":  {"teleport": 1},
		"Negative": {billing.OpSearch: -1},
		"Huge":     {billing.OpSearch: billing.MaxCost + 1},
		"Mixed":    {billing.OpSearch: 2, "teleport": 1},
	} {
		if _, err := p.Set(ctx, bad); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("%s: %v", name, err)
		}
	}
	if p.Cost(billing.OpSearch) != 1 {
		t.Fatal("a rejected change was applied")
	}
	if _, err := p.Set(ctx, map[string]int64{billing.OpSearch: 0, billing.OpAgentCreate: 25}); err != nil {
		t.Fatal(err)
	}
	db.Close()
	db = openDB(t, dir)
	defer db.Close()
	p2, err := billing.NewPricing(ctx, db)
	if err != nil {
		t.Fatal(err)
	}
	if p2.Cost(billing.OpSearch) != 0 || p2.Cost(billing.OpAgentCreate) != 25 || p2.Cost(billing.OpMemoryRead) != 1 {
		t.Fatalf("reloaded %v", p2.Costs())
	}
}

func TestLedgerChargeRefundGrant(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	defer db.Close()
	l := &billing.Ledger{Store: db, Clock: cairn.SystemClock{}, Cursors: cairn.NewCursors([]byte("0123456789abcdef"))}
	dev, err := db.EnsureDeveloper(ctx, cairn.NewID())
	if err != nil {
		t.Fatal(err)
	}
	if _, err := l.Charge(ctx, dev.ID, "", billing.OpSearch, 1, "r"); !cairn.IsCode(err, cairn.EPAYMENT) {
		t.Fatalf("charge on empty account: %v", err)
	}
	if _, err := l.Grant(ctx, dev.ID, 0, "zero", ""); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatal("zero grant accepted")
	}
	if _, err := l.Grant(ctx, dev.ID, 10, "test", ""); err != nil {
		t.Fatal(err)
	}
	ch, err := l.Charge(ctx, dev.ID, "", billing.OpMemoryWrite, 4, "r1")
	if err != nil {
		t.Fatal(err)
	}
	ref, err := l.Refund(ctx, ch, 99, "r1") // more than charged: capped
	if err != nil || ref.Amount != 4 || ref.RefID != ch.ID || ref.BalanceAfter != 10 {
		t.Fatalf("refund %+v %v", ref, err)
	}
	page, err := l.Transactions(ctx, dev.ID, "", 2)
	if err != nil || len(page.Entries) != 2 || page.NextCursor == "" || page.Entries[0].Kind != cairn.LedgerRefund {
		t.Fatalf("page 1 %+v %v", page, err)
	}
	page, err = l.Transactions(ctx, dev.ID, page.NextCursor, 2)
	if err != nil || len(page.Entries) != 1 || page.NextCursor != "" || page.Entries[0].Kind != cairn.LedgerGrant {
		t.Fatalf("page 2 %+v %v", page, err)
	}
	other, _ := db.EnsureDeveloper(ctx, cairn.NewID())
	first, _ := l.Transactions(ctx, dev.ID, "", 1)
	if _, err := l.Transactions(ctx, other.ID, first.NextCursor, 1); !cairn.IsCode(err, cairn.EINVALID) {
		t.Fatalf("another account's cursor accepted: %v", err)
	}
}

// TestLedgerCursorFormats: a ledger cursor names the developer as every
// listing's cursor does (cairn.DeveloperPrincipal); a cursor minted in the
// earlier format, bound to the bare developer id, still pages, and
// neither pages another account's ledger.
func TestLedgerCursorFormats(t *testing.T) {
	ctx := context.Background()
	db := openDB(t, t.TempDir())
	defer db.Close()
	cursors := cairn.NewCursors([]byte("0123456789abcdef"))
	l := &billing.Ledger{Store: db, Clock: cairn.SystemClock{}, Cursors: cursors}
	dev, err := db.EnsureDeveloper(ctx, cairn.NewID())
	if err != nil {
		t.Fatal(err)
	}
	for i := range 3 {
		if _, err := l.Grant(ctx, dev.ID, 10, "test", fmt.Sprint("g", i)); err != nil {
			t.Fatal(err)
		}
	}
	first, err := l.Transactions(ctx, dev.ID, "", 1)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := cursors.DecodePage(first.NextCursor, cairn.DeveloperPrincipal(dev.ID), "ledger"); err != nil {
		t.Fatalf("the cursor is not bound to the developer principal: %v", err)
	}
	legacy := cursors.EncodePage(dev.ID, "", strconv.FormatUint(first.Entries[0].Seq, 10))
	for name, cur := range map[string]string{"current": first.NextCursor, "legacy": legacy} {
		page, err := l.Transactions(ctx, dev.ID, cur, 5)
		if err != nil || len(page.Entries) != 2 || page.Entries[0].Seq != first.Entries[0].Seq-1 {
			t.Fatalf("%s cursor: %+v %v", name, page, err)
		}
		other, _ := db.EnsureDeveloper(ctx, cairn.NewID())
		if _, err := l.Transactions(ctx, other.ID, cur, 1); !cairn.IsCode(err, cairn.EINVALID) {
			t.Fatalf("%s cursor of another account accepted: %v", name, err)
		}
	}
}
