package billing

import (
	"context"
	"strconv"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/store"
)

// OperationAdminGrant is the ledger operation of credits an administrator
// grants (POST /v1/admin/credits).
const OperationAdminGrant = "admin.grant"

// Ledger moves credits. Every movement is one ledger entry; the balance is
// the sum of the entries, kept by the store in the same commit.
type Ledger struct {
	Store   store.Store
	Clock   cairn.Clock
	Cursors *cairn.Cursors
	// Origin names this service instance on its charges (see Recovery).
	Origin string
	// OnCharge and OnRefund, when set, observe committed movements (metrics).
	OnCharge func(op string, amount int64)
	OnRefund func(op string, amount int64)
}

// Charge takes amount credits for op from the developer account, before
// the effect it pays for. EPAYMENT (with "required" and "available") when
// the balance does not cover it; nothing is written then.
func (l *Ledger) Charge(ctx context.Context, developerID, agentID, op string, amount int64, requestID string) (*cairn.LedgerEntry, error) {
	if amount <= 0 {
		return nil, cairn.Errorf(cairn.EINTERNAL, "billing: non-positive charge")
	}
	e := &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: developerID, AgentID: agentID, Kind: cairn.LedgerCharge,
		Operation: op, Amount: -amount, RequestID: requestID, Origin: l.Origin, CreatedAt: l.Clock.Now(),
	}
	if err := l.Store.Apply(ctx, e); err != nil {
		return nil, err
	}
	if l.OnCharge != nil {
		l.OnCharge(op, amount)
	}
	return e, nil
}

// Refund returns amount credits of charge (at most what it took) as a new
// entry that references it.
func (l *Ledger) Refund(ctx context.Context, charge *cairn.LedgerEntry, amount int64, requestID string) (*cairn.LedgerEntry, error) {
	if amount <= 0 || amount > -charge.Amount {
		amount = -charge.Amount
	}
	e := &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: charge.DeveloperID, AgentID: charge.AgentID, Kind: cairn.LedgerRefund,
		Operation: charge.Operation, Amount: amount, RequestID: requestID, RefID: charge.ID,
		UniqueKey: RefundKey(charge.ID), CreatedAt: l.Clock.Now(),
	}
	// A refund can only raise the balance; retry transient failures a little
	// so that a failed operation is not left paid for. The unique key makes
	// the retries safe: a write that committed although its answer was lost
	// makes the next attempt a conflict, and the charge stays refunded once.
	ctx = context.WithoutCancel(ctx)
	var err error
	for range 3 {
		err = l.Store.Apply(ctx, e)
		if cairn.IsCode(err, cairn.ECONFLICT) {
			return l.Store.LedgerByUniqueKey(ctx, e.UniqueKey)
		}
		if err == nil {
			// A store that dropped the charge unpaid (a deferred charge
			// another instance's spending left uncovered: store.Ledger)
			// takes its refund as a no-op, numbered 0: no credits moved.
			if l.OnRefund != nil && e.Seq > 0 {
				l.OnRefund(charge.Operation, amount)
			}
			return e, nil
		}
	}
	return nil, err
}

// RefundKey is the ledger unique key of the refund of a charge: one per
// charge, whoever refunds it (a request's settlement, its retry, or the
// start-up recovery of charges), so that no charge is refunded twice.
func RefundKey(chargeID string) string { return "refund/" + chargeID }

// Grant adds (or, negative, removes) credits by administrative decision.
func (l *Ledger) Grant(ctx context.Context, developerID string, amount int64, reason, requestID string) (*cairn.LedgerEntry, error) {
	if amount == 0 || amount > 1e12 || amount < -1e12 {
		return nil, cairn.Errorf(cairn.EINVALID, "amount must be a non-zero integer of at most 10^12 in size.")
	}
	e := &cairn.LedgerEntry{
		ID: cairn.NewID(), DeveloperID: developerID, Kind: cairn.LedgerGrant, Operation: OperationAdminGrant,
		Amount: amount, RequestID: requestID, Reason: reason, CreatedAt: l.Clock.Now(),
	}
	if err := l.Store.Apply(ctx, e); err != nil {
		return nil, err
	}
	return e, nil
}

// Balance returns the developer's balance.
func (l *Ledger) Balance(ctx context.Context, developerID string) (int64, error) {
	d, err := l.Store.Developer(ctx, developerID)
	if err != nil {
		return 0, err
	}
	return d.Balance, nil
}

// Page is one page of ledger entries, newest first.
type Page struct {
	Entries    []cairn.LedgerEntry
	NextCursor string // "" on the last page
}

// ledgerFilter is the filter of a ledger page cursor: it tells the
// ledger's cursors from those of the developer's other listings.
const ledgerFilter = "ledger"

// Transactions returns a page of the developer's ledger. cursor is "" for
// the first page or a previous page's NextCursor: the one page cursor of
// the service (cairn.Cursors.EncodePage), bound to the developer account
// whose ledger it pages, cairn.DeveloperPrincipal (cairn.InvalidCursor
// when tampered with or minted for another account); a cursor of the
// earlier format, bound to the bare developer id, is still read.
func (l *Ledger) Transactions(ctx context.Context, developerID, cursor string, limit int) (*Page, error) {
	var before uint64
	if cursor != "" {
		pos, err := l.Cursors.DecodePage(cursor, cairn.DeveloperPrincipal(developerID), ledgerFilter)
		if err != nil {
			// A cursor minted before the principal format was one names
			// the developer by its bare id.
			if pos, err = l.Cursors.DecodePage(cursor, developerID, ""); err != nil {
				return nil, err
			}
		}
		if before, err = strconv.ParseUint(pos, 10, 64); err != nil || before == 0 {
			return nil, cairn.InvalidCursor()
		}
	}
	entries, err := l.Store.Transactions(ctx, developerID, before, limit+1)
	if err != nil {
		return nil, err
	}
	p := &Page{Entries: entries}
	if len(entries) > limit {
		p.Entries = entries[:limit]
		p.NextCursor = l.Cursors.EncodePage(cairn.DeveloperPrincipal(developerID), ledgerFilter, strconv.FormatUint(p.Entries[limit-1].Seq, 10))
	}
	return p, nil
}
