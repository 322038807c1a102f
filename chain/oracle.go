package chain

import (
	"context"
	"iter"
)

// Oracle statuses: how far the verifier contract's isSanctioned(address)
// storage is in step with the newest list version the chain holds.
const (
	OracleDisabled = "disabled" // no chain is configured, or the oracle is off
	OracleSyncing  = "syncing"  // addresses are still to be added or removed
	OracleSynced   = "synced"   // the storage holds exactly the version's EVM sanctions addresses
	OracleFailed   = "failed"   // the last attempt failed; it is retried with backoff
)

// OracleStatus is the state of the contract's oracle storage.
type OracleStatus struct {
	Status string // one of the Oracle* statuses
	// ListVersion is the anchored list version the storage is being kept
	// in step with (0 before any version is anchored).
	ListVersion uint64
	// Pending is how many addresses are still to be added or removed, as
	// last counted.
	Pending int
	TxHash  string // the transaction in flight, if any
	Error   string // the last failure, if any
}

// Oracle keeps the contract's oracle storage in step with the anchored
// list versions. (Declared here; implemented by chain/evm.)
type Oracle interface {
	OracleStatus(ctx context.Context) (OracleStatus, error)
}

// OracleList is a list version as the oracle needs it: the EVM addresses
// of its sanctions tree and proofs against its trees. Addresses are the
// 20 bytes of EVM accounts.
type OracleList interface {
	// Version is the list version.
	Version() uint64
	// Sanctioned yields the EVM addresses of the sanctions tree in
	// ascending order.
	Sanctioned() iter.Seq[[20]byte]
	// IsSanctioned reports whether an EVM address is in the sanctions tree.
	IsSanctioned(account [20]byte) bool
	// AddProof returns the OpenZeppelin multiproof of the membership
	// leaves of accounts (all in the sanctions tree), with the accounts in
	// the order of the proof's leaves, as addSanctioned takes them.
	AddProof(accounts [][20]byte) (ordered [][20]byte, proof [][32]byte, flags []bool, err error)
	// RemoveProof returns the exclusion proof of an account not in the
	// sanctions tree, as isNotSanctioned and removeSanctioned take it: the
	// listed addresses below and above it (the zero address and 0xff..ff
	// at an open end) and the proof of their gap leaf.
	RemoveProof(account [20]byte) (low, high [20]byte, proof [][32]byte, err error)
}

// OracleLists finds the list version whose roots the chain holds.
// (Declared here; implemented by compliance from the screening index.)
type OracleLists interface {
	// OracleList returns the held list version whose four roots are
	// roots, false when none is held.
	OracleList(roots Roots) (OracleList, bool)
}
