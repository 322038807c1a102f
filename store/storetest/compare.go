package storetest

import (
	"bytes"
	"reflect"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// wantAgent fails the test unless got equals want field by field (times by
// instant, so a backend may return them in any location).
func wantAgent(t *testing.T, got, want *cairn.Agent) {
	t.Helper()
	if got == nil {
		t.Fatalf("agent is nil, want %+v", want)
	}
	if got.ID != want.ID || got.DeveloperID != want.DeveloperID || got.Name != want.Name ||
		!bytes.Equal(got.KeyHash, want.KeyHash) || !bytes.Equal(got.SecretHash, want.SecretHash) ||
		got.Revoked != want.Revoked || !got.RevokedAt.Equal(want.RevokedAt) ||
		got.DepositIndex != want.DepositIndex || got.DepositAddress != want.DepositAddress ||
		!got.CreatedAt.Equal(want.CreatedAt) || !got.RotatedAt.Equal(want.RotatedAt) {
		t.Fatalf("agent =\n%+v\nwant\n%+v", *got, *want)
	}
}

// wantEntry fails the test unless got equals want field by field.
func wantEntry(t *testing.T, got, want cairn.LedgerEntry) {
	t.Helper()
	g, w := got, want
	if !g.CreatedAt.Equal(w.CreatedAt) {
		t.Fatalf("entry %d CreatedAt = %v, want %v", w.Seq, g.CreatedAt, w.CreatedAt)
	}
	g.CreatedAt = w.CreatedAt
	if g != w {
		t.Fatalf("entry =\n%+v\nwant\n%+v", g, w)
	}
}

// wantAudit fails the test unless got equals want field by field.
func wantAudit(t *testing.T, got, want cairn.AuditEntry) {
	t.Helper()
	if got.ID != want.ID || got.AgentID != want.AgentID || got.Action != want.Action ||
		got.Resource != want.Resource || got.RequestID != want.RequestID || got.IP != want.IP ||
		!got.CreatedAt.Equal(want.CreatedAt) ||
		len(got.Detail)+len(want.Detail) > 0 && !reflect.DeepEqual(got.Detail, want.Detail) {
		t.Fatalf("audit entry =\n%+v\nwant\n%+v", got, want)
	}
}

// wantBalance fails the test unless the developer's balance is want.
func wantBalance(t *testing.T, s store.Store, devID string, want int64) {
	t.Helper()
	d, err := s.Developer(ctx, devID)
	mustOK(t, err, "Developer")
	if d.Balance != want {
		t.Fatalf("balance = %d, want %d", d.Balance, want)
	}
}

// ledger reads the developer's whole ledger, newest first, page by page.
func ledger(t *testing.T, s store.Store, devID string) []cairn.LedgerEntry {
	t.Helper()
	var all []cairn.LedgerEntry
	var before uint64
	for {
		page, err := s.Transactions(ctx, devID, before, 37)
		mustOK(t, err, "Transactions")
		all = append(all, page...)
		if len(page) < 37 {
			return all
		}
		before = page[len(page)-1].Seq
	}
}

// checkLedger fails the test unless the developer's ledger is whole: seqs
// n..1 newest first, each BalanceAfter the running sum and never negative,
// and the balance and LedgerSeq of the developer equal to the sum and n.
// It returns the ledger.
func checkLedger(t *testing.T, s store.Store, devID string) []cairn.LedgerEntry {
	t.Helper()
	entries := ledger(t, s, devID)
	var sum int64
	for i := len(entries) - 1; i >= 0; i-- {
		e := entries[i]
		if want := uint64(len(entries) - i); e.Seq != want {
			t.Fatalf("entry %d has Seq %d, want %d", len(entries)-1-i, e.Seq, want)
		}
		if e.DeveloperID != devID {
			t.Fatalf("entry %d belongs to %q, want %q", e.Seq, e.DeveloperID, devID)
		}
		sum += e.Amount
		if e.BalanceAfter != sum {
			t.Fatalf("entry %d BalanceAfter = %d, running sum %d", e.Seq, e.BalanceAfter, sum)
		}
		if sum < 0 {
			t.Fatalf("balance went negative (%d) at entry %d", sum, e.Seq)
		}
	}
	d, err := s.Developer(ctx, devID)
	mustOK(t, err, "Developer")
	if d.Balance != sum || d.LedgerSeq != uint64(len(entries)) {
		t.Fatalf("developer balance %d seq %d; ledger sums to %d over %d entries",
			d.Balance, d.LedgerSeq, sum, len(entries))
	}
	return entries
}
