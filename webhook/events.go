package webhook

import (
	"context"
	"strconv"
	"time"

	"github.com/cairn-dev/cairn"
)

// listVersion is the data of a list.version event.
type listVersion struct {
	ListVersion   uint64    `json:"listVersion"`
	BuiltAt       time.Time `json:"builtAt"`
	Root          string    `json:"root"`
	SanctionsRoot string    `json:"sanctionsRoot,omitempty"`
	CommunityRoot string    `json:"communityRoot,omitempty"`
	Entries       int       `json:"entries"`
	Added         int       `json:"added"`
	Removed       int       `json:"removed"`
}

// ListVersion announces a committed list version, with its counts, to
// every endpoint subscribed to list.version, and wakes the sender for the
// alerts the version recorded.
func (s *Service) ListVersion(ctx context.Context, v cairn.ListVersion) {
	if err := s.emitListVersion(ctx, v, time.Time{}); err != nil {
		s.Logger.Error("enqueueing the list.version webhooks failed", "version", v.Version, "err", err)
	}
	s.Wake()
}

// emitListVersion enqueues the list.version event of v for the endpoints
// created by createdBy (zero: all).
func (s *Service) emitListVersion(ctx context.Context, v cairn.ListVersion, createdBy time.Time) error {
	return s.emit(ctx, "", cairn.EventListVersion, strconv.FormatUint(v.Version, 10), createdBy, listVersion{ListVersion: v.Version,
		BuiltAt: v.BuiltAt, Root: v.Root, SanctionsRoot: v.SanctionsRoot, CommunityRoot: v.CommunityRoot, Entries: v.Entries,
		Added: v.Added, Removed: v.Removed})
}

// depositCredited is the data of a deposit.credited event.
type depositCredited struct {
	AgentID       string `json:"agentId"`
	TxHash        string `json:"txHash"`
	Octas         string `json:"octas"`
	CreditsAdded  int64  `json:"creditsAdded"`
	CreditBalance int64  `json:"creditBalance"`
	TransactionID string `json:"transactionId"`
}

// DepositCredited announces a credited deposit to the developer account's
// endpoints subscribed to deposit.credited (the transaction hash names
// the event, so that it is enqueued once).
func (s *Service) DepositCredited(ctx context.Context, e *cairn.LedgerEntry, txHash string, octas uint64) {
	if err := s.emitDeposit(ctx, e, txHash, octas, time.Time{}); err != nil {
		s.Logger.Error("enqueueing the deposit.credited webhooks failed", "tx_hash", txHash, "err", err)
	}
}

// emitDeposit enqueues the deposit.credited event of the ledger entry for
// the endpoints created by createdBy (zero: all).
func (s *Service) emitDeposit(ctx context.Context, e *cairn.LedgerEntry, txHash string, octas uint64, createdBy time.Time) error {
	return s.emit(ctx, e.DeveloperID, cairn.EventDepositCredited, txHash, createdBy, depositCredited{AgentID: e.AgentID, TxHash: txHash,
		Octas: strconv.FormatUint(octas, 10), CreditsAdded: e.Amount, CreditBalance: e.BalanceAfter, TransactionID: e.ID})
}

// anchorSynced is the data of an anchor.synced event.
type anchorSynced struct {
	ListVersion uint64    `json:"listVersion"`
	Target      string    `json:"target"`
	TxHash      string    `json:"txHash"`
	BlockNumber uint64    `json:"blockNumber"`
	SyncedAt    time.Time `json:"syncedAt"`
}

// AnchorSynced announces, to every account's endpoints subscribed to
// anchor.synced, that the chain target holds a list version's roots with
// the required confirmations.
func (s *Service) AnchorSynced(ctx context.Context, a cairn.Anchor) {
	if err := s.emitAnchor(ctx, a, time.Time{}); err != nil {
		s.Logger.Error("enqueueing the anchor.synced webhooks failed", "version", a.ListVersion, "err", err)
	}
}

// emitAnchor enqueues the anchor.synced event of a for the endpoints
// created by createdBy (zero: all).
func (s *Service) emitAnchor(ctx context.Context, a cairn.Anchor, createdBy time.Time) error {
	return s.emit(ctx, "", cairn.EventAnchorSynced, a.Target+":"+strconv.FormatUint(a.ListVersion, 10), createdBy,
		anchorSynced{ListVersion: a.ListVersion, Target: a.Target, TxHash: a.TxHash, BlockNumber: a.BlockNumber, SyncedAt: a.SyncedAt})
}
