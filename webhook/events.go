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
	err := s.Emit(ctx, "", cairn.EventListVersion, strconv.FormatUint(v.Version, 10), listVersion{ListVersion: v.Version,
		BuiltAt: v.BuiltAt, Root: v.Root, SanctionsRoot: v.SanctionsRoot, CommunityRoot: v.CommunityRoot, Entries: v.Entries,
		Added: v.Added, Removed: v.Removed})
	if err != nil {
		s.Logger.Error("enqueueing the list.version webhooks failed", "version", v.Version, "err", err)
	}
	s.Wake()
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
	err := s.Emit(ctx, e.DeveloperID, cairn.EventDepositCredited, txHash, depositCredited{AgentID: e.AgentID, TxHash: txHash,
		Octas: strconv.FormatUint(octas, 10), CreditsAdded: e.Amount, CreditBalance: e.BalanceAfter, TransactionID: e.ID})
	if err != nil {
		s.Logger.Error("enqueueing the deposit.credited webhooks failed", "tx_hash", txHash, "err", err)
	}
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
func (s *Service) AnchorSynced(ctx context.Context, target string, version uint64, txHash string, block uint64, at time.Time) {
	err := s.Emit(ctx, "", cairn.EventAnchorSynced, target+":"+strconv.FormatUint(version, 10), anchorSynced{ListVersion: version,
		Target: target, TxHash: txHash, BlockNumber: block, SyncedAt: at})
	if err != nil {
		s.Logger.Error("enqueueing the anchor.synced webhooks failed", "version", version, "err", err)
	}
}
