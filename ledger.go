package cairn

import "time"

// Ledger entry kinds.
const (
	LedgerCharge  = "charge"  // an operation was paid for (negative amount)
	LedgerRefund  = "refund"  // a charge was returned because its operation failed (positive)
	LedgerGrant   = "grant"   // credits given: starter credits, administrator grants (either sign)
	LedgerDeposit = "deposit" // an on-chain deposit was credited (positive)
)

// LedgerEntry is one movement of credits on a developer account. The
// account's balance is always the sum of the amounts of its entries.
type LedgerEntry struct {
	ID           string `json:"id"`
	DeveloperID  string `json:"developerId"`
	AgentID      string `json:"agentId,omitempty"`
	Seq          uint64 `json:"seq"` // 1, 2, 3... per developer, assigned by the store
	Kind         string `json:"kind"`
	Operation    string `json:"operation"` // e.g. memory.write, starter, admin.grant
	Amount       int64  `json:"amount"`    // signed: charges are negative
	BalanceAfter int64  `json:"balanceAfter"`
	RequestID    string `json:"requestId,omitempty"`
	RefID        string `json:"refId,omitempty"`  // a refund's charge id
	Reason       string `json:"reason,omitempty"` // free text for grants
	// UniqueKey, when set, may occur at most once across all ledgers (e.g. a
	// deposit's transaction hash): a second entry with it fails with ECONFLICT.
	UniqueKey string `json:"uniqueKey,omitempty"`
	// Origin names the service instance that took a charge: start-up
	// recovery of interrupted requests refunds only its own instance's
	// charges, since another replica's writes are not in its stores.
	Origin    string    `json:"origin,omitempty"`
	CreatedAt time.Time `json:"createdAt"`
}
