// Package chain holds the contracts between cairn and the blockchains it
// uses: where agents send deposits (DepositAddresses), how a deposit is
// checked (DepositVerifier) and how a sanctions-list Merkle root is published
// (Anchorer).
//
// It owns interfaces and plain values only. It imports the standard library
// and the root package, never a chain SDK, storage, HTTP or gin: the
// implementations live in chain/aptos and chain/evm, and only cmd wires them.
package chain

import (
	"context"
	"encoding/hex"
	"strings"

	"github.com/cairn-dev/cairn"
)

// DepositAddresses derives one deposit address per agent from a single HD
// seed. The same seed and index always give the same address; two indexes
// never give the same one.
type DepositAddresses interface {
	// Network names the network deposits are expected on, e.g. "mainnet".
	Network() string
	// SupportedTokens lists the token symbols accepted as deposits, e.g.
	// ["APT"].
	SupportedTokens() []string
	// Address returns the deposit address of the given derivation index in
	// the chain's canonical text form.
	Address(index uint32) (string, error)
}

// Deposit is a verified transfer of the network's native token to a deposit
// address.
type Deposit struct {
	TxHash  string // transaction hash, canonical lower-case form
	To      string // the deposit address that was credited
	Sender  string // the account that signed the transaction
	Amount  uint64 // amount credited to To, in the token's smallest unit (octas for APT)
	Version uint64 // ledger version (or block number) of the committed transaction
}

// DepositVerifier checks deposits on chain. (Declared here; implemented by
// chain/aptos.)
type DepositVerifier interface {
	// VerifyDeposit looks txHash up and returns what it credited to address
	// in the native token. It succeeds only for a committed, successful user
	// transaction that moved a positive amount of the native token into
	// address; transfers of other tokens are not deposits. Errors are
	// *cairn.Error: ENOTFOUND for an unknown transaction, EPENDING for one
	// not committed yet,
	// EUNPROCESSABLE for one that is not such a deposit, EUPSTREAM when the
	// node cannot be reached.
	VerifyDeposit(ctx context.Context, txHash, address string) (Deposit, error)

	// NormalizeTxHash returns the canonical form of a transaction hash,
	// false when s is not one.
	NormalizeTxHash(s string) (string, bool)
}

// Anchor statuses: the life of one list version's roots on chain.
const (
	AnchorDisabled  = "disabled"  // no chain is configured
	AnchorPending   = "pending"   // recorded, no transaction sent yet
	AnchorSubmitted = "submitted" // its transaction was broadcast, not yet confirmed enough
	AnchorSynced    = "synced"    // mined with the required confirmations
	AnchorFailed    = "failed"    // the last attempt failed; it is retried with backoff
	// AnchorSuperseded marks an older version whose roots a newer version
	// replaced before it was synced. Status never reports it (it reports
	// the newest version); it shows in the store's records.
	AnchorSuperseded = "superseded"
)

// Roots are the Merkle roots of one list version, anchored together: the
// membership trees of the sanctions and community classes, and their
// exclusion trees (the gaps between listed addresses, which prove an
// address absent). A zero root is an empty tree, or one not built.
type Roots struct {
	Sanctions          [32]byte
	Community          [32]byte
	Exclusion          [32]byte
	CommunityExclusion [32]byte
}

// RootsOf reads the four roots of an anchor record; a root it does not
// carry (a record written before exclusion roots were anchored) is zero.
func RootsOf(a cairn.Anchor) Roots {
	return Roots{Sanctions: root32(a.SanctionsRoot), Community: root32(a.CommunityRoot),
		Exclusion: root32(a.ExclusionRoot), CommunityExclusion: root32(a.CommunityExclusionRoot)}
}

// root32 decodes a root written as 0x hex; "" is the zero root.
func root32(s string) (root [32]byte) {
	b, _ := hex.DecodeString(strings.TrimPrefix(s, "0x"))
	if len(b) > len(root) {
		b = b[len(b)-len(root):]
	}
	copy(root[len(root)-len(b):], b)
	return root
}

// Anchorer publishes the Merkle roots of sanctions-list versions on chain so
// that third parties can check membership proofs against them. (Declared
// here; implemented by chain/evm.)
type Anchorer interface {
	// Submit records durably that list version v, with these roots, is to
	// be anchored (all four in one transaction), and returns without
	// waiting for the chain: a chain outage never blocks the caller. A
	// version not newer than the newest one submitted is ignored.
	Submit(ctx context.Context, v uint64, roots Roots) error
	// Status returns the record of the newest submitted version (before
	// any, pending with list version 0 and only the Target set).
	Status(ctx context.Context) (cairn.Anchor, error)
	// Synced returns the state of the newest version the chain holds
	// (status synced), and false when no version was synced yet.
	Synced(ctx context.Context) (cairn.Anchor, bool, error)
	// Anchor returns the record of list version v's anchoring, and false
	// when v was never submitted.
	Anchor(ctx context.Context, v uint64) (cairn.Anchor, bool, error)
	// Confirmations is how many blocks, counting the one that includes
	// the transaction, must be mined before a version is synced.
	Confirmations() uint64
	// Head is the newest block number the anchorer read while a
	// transaction waited for its confirmations (0 before any).
	Head() uint64
}
