package evm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/store"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/crypto"
)

// OracleOptions configure an Oracle.
type OracleOptions struct {
	// Lists gives the list version whose roots the chain holds.
	Lists chain.OracleLists
	// MaxGas bounds the gas of one transaction (0: half the gas limit of
	// the head block, 2^24 at most), so that each batch fits a block
	// beside others.
	MaxGas uint64
	// FromBlock is the first block whose oracle events are read to learn
	// what the contract holds (0: the first block that anchored roots of
	// this contract, as recorded; no address can be marked before a root).
	FromBlock uint64
	// LogRange is how many blocks one eth_getLogs call covers (0: 2000).
	LogRange uint64
}

// Oracle keeps the verifier contract's isSanctioned(address) storage in
// step with the newest list version the chain holds (chain.Oracle): once
// the anchorer has synced version v, it adds every EVM address of v's
// sanctions tree that the contract does not mark (addSanctioned, one
// multiproof per batch) and removes every marked one v no longer lists
// (removeSanctioned, an exclusion proof each), in batches that fit the
// gas bound; when a newer version is synced it starts again from that
// one.
//
// What the contract marks is read from its own events
// (SanctionedAddressesAdded/Removed, from the first anchored block up to
// the newest block with Options.Confirmations), so that the plan is
// right whoever sent the earlier transactions, after a restart, and
// after a reorg of the blocks not yet confirmed; a batch counts as done
// only once its block is confirmed too. Its progress is recorded in the anchor store under
// the target "<anchor target>/oracle", one record per list version: each
// transaction is signed and stored before it is broadcast, followed until
// mined (or found dropped) before the next is planned, and broadcast
// again, never signed anew, after a restart. Adding a marked address or
// removing an unmarked one changes nothing on chain, so even a
// transaction sent twice would cost only gas.
//
// It sends with the anchorer's key, never at the same time as the
// anchorer, and only while no newer version is being anchored: the
// proofs of a version fail once the contract holds another root.
type Oracle struct {
	a      *Anchorer
	opts   OracleOptions
	target string
	log    *slog.Logger
	wake   chan struct{}

	// The contract's marked addresses as its events tell up to block
	// next-1; read only under a.sendMu.
	marked  map[[20]byte]struct{}
	next    uint64
	started bool
	// gasPer is the gas per address the last estimate of each kind
	// measured (the first guess before any).
	gasPer map[string]uint64
}

var _ chain.Oracle = (*Oracle)(nil)

// Event topics of the contract's oracle storage.
var (
	addedTopic   = crypto.Keccak256Hash([]byte("SanctionedAddressesAdded(address[])"))
	removedTopic = crypto.Keccak256Hash([]byte("SanctionedAddressesRemoved(address[])"))
)

// Batch kinds.
const (
	oracleAdd    = "add"
	oracleRemove = "remove"
)

// NewOracle returns the oracle of a's contract; run it with Run (it
// sends nothing otherwise).
func NewOracle(a *Anchorer, opts OracleOptions) (*Oracle, error) {
	if opts.Lists == nil {
		return nil, errors.New("evm: an oracle needs the list versions")
	}
	if opts.LogRange == 0 {
		opts.LogRange = 2000
	}
	o := &Oracle{a: a, opts: opts, target: a.target + "/oracle", log: a.log.With("component", "oracle"),
		wake: make(chan struct{}, 1), marked: map[[20]byte]struct{}{},
		// First guesses, above what a million-address tree costs (48.6k
		// per add, 30.1k per remove), corrected by each estimate.
		gasPer: map[string]uint64{oracleAdd: 60_000, oracleRemove: 40_000}}
	a.onSynced = o.nudge
	return o, nil
}

func (o *Oracle) nudge() { nudge(o.wake) }

// Run keeps the storage in step until ctx ends: a round at once, every
// poll interval, when a version becomes synced, and soon after each
// broadcast. Failures are recorded and retried with backoff.
func (o *Oracle) Run(ctx context.Context) {
	rounds(ctx, o.a.opts.PollInterval, o.wake, func() {
		if err := o.Step(ctx); err != nil && ctx.Err() == nil {
			o.log.Error("oracle round failed", "err", Redact(err))
		}
	})
}

// OracleStatus reports the record of the newest synced version: syncing
// (with the addresses still pending), synced or failed. Before any
// version is synced it is syncing list version 0.
func (o *Oracle) OracleStatus(ctx context.Context) (chain.OracleStatus, error) {
	st := chain.OracleStatus{Status: chain.OracleSyncing}
	synced, ok, err := o.a.Synced(ctx)
	if err != nil || !ok {
		return st, err
	}
	st.ListVersion = synced.ListVersion
	r, err := store.LatestAnchor(ctx, o.a.opts.Store, o.target)
	if cairn.IsCode(err, cairn.ENOTFOUND) || (err == nil && r.ListVersion < synced.ListVersion) {
		return st, nil // planned at the next round
	} else if err != nil {
		return st, err
	}
	st.ListVersion, st.Pending, st.TxHash, st.Error = r.ListVersion, r.Pending, r.TxHash, r.Error
	switch r.Status {
	case chain.OracleSynced, chain.OracleFailed:
		st.Status = r.Status
	}
	return st, nil
}

// fail records a failed attempt: status failed, the error kept, the next
// attempt put off by the backoff. clear also drops the transaction in
// flight (it can no longer change anything).
func (o *Oracle) fail(ctx context.Context, r cairn.Anchor, cause error, clear bool) error {
	msg := Redact(cause)
	var next time.Time
	_, err := o.a.opts.Store.UpdateAnchor(ctx, o.target, r.ListVersion, func(x *cairn.Anchor) error {
		if clear && x.TxHash != r.TxHash {
			return errTxChanged
		}
		x.Attempts++
		next = o.a.now().Add(o.a.backoff(x.Attempts))
		x.Status, x.Error, x.NextAttempt = chain.OracleFailed, msg, next
		if clear {
			dropTx(x)
		}
		return nil
	})
	if errors.Is(err, errTxChanged) {
		return nil
	}
	if err == nil {
		o.log.Warn("oracle update failed; retrying later", "list_version", r.ListVersion, "err", msg, "retry_at", next, "tx", r.TxHash)
	}
	return err
}

// dropTx forgets x's transaction, keeping its hash.
func dropTx(x *cairn.Anchor) {
	if x.TxHash != "" {
		x.PrevTxHashes = append(x.PrevTxHashes, x.TxHash)
	}
	x.RawTx, x.TxHash, x.Nonce = nil, "", 0
}

// addresses are the 0x forms of accounts, for the log.
func addrRange(accounts []common.Address) string {
	if len(accounts) == 0 {
		return ""
	}
	return fmt.Sprintf("%s..%s", accounts[0].Hex(), accounts[len(accounts)-1].Hex())
}
