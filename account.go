package cairn

import "time"

// Developer is a parent account. It holds the credit balance that every one
// of its agents spends from.
type Developer struct {
	ID        string    `json:"id"`
	Balance   int64     `json:"balance"` // credits; always the sum of the developer's ledger
	LedgerSeq uint64    `json:"ledgerSeq"`
	CreatedAt time.Time `json:"createdAt"`
}

// Agent is one agent of a developer account, with its own isolated memory
// space and its own API key. Key and rotation secret are kept only as
// SHA-256 digests.
type Agent struct {
	ID             string    `json:"id"`
	DeveloperID    string    `json:"developerId"`
	Name           string    `json:"name"`
	KeyHash        []byte    `json:"keyHash"`
	SecretHash     []byte    `json:"secretHash,omitempty"` // empty: no rotation secret configured
	Revoked        bool      `json:"revoked"`
	RevokedAt      time.Time `json:"revokedAt,omitzero"`
	DepositIndex   uint32    `json:"depositIndex"`
	DepositAddress string    `json:"depositAddress"`
	CreatedAt      time.Time `json:"createdAt"`
	RotatedAt      time.Time `json:"rotatedAt,omitzero"`
}
