package evm

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// track follows r's transaction. For the newest version (latest) it moves
// r to synced once mined with enough confirmations; for an older one, any
// end (mined, or never minable) supersedes it. blocked reports an older
// transaction still in flight.
//
// A transaction that is not mined is judged by the sender's nonces:
//   - the chain's nonce is past it: another transaction used the nonce (it
//     was replaced, or dropped and the nonce reused); it can never be
//     mined, so the version is signed anew;
//   - the pool's pending nonce is past it: it (or a transaction with its
//     nonce) is waiting to be mined; wait;
//   - the pending nonce equals it: the node does not hold it (dropped, or
//     the service stopped between storing and broadcasting): broadcast the
//     same bytes again;
//   - the pending nonce is below it: a nonce gap (transactions of lower
//     nonces are missing); after GapGrace the version is signed anew at the
//     missing nonce. Should the old transaction be mined later all the same,
//     the contract refuses it (StaleListVersion): it cannot set the roots
//     twice.
func (a *Anchorer) track(ctx context.Context, r cairn.Anchor, latest bool) (blocked bool, err error) {
	h := common.HexToHash(r.TxHash)
	rcpt, err := a.b.TransactionReceipt(ctx, h)
	switch {
	case err == nil && rcpt.Status == types.ReceiptStatusSuccessful:
		a.forgetGap(h)
		if !latest {
			return false, a.endOlder(ctx, r, rcpt.BlockNumber.Uint64(), "")
		}
		return false, a.mined(ctx, r, rcpt.BlockNumber.Uint64())
	case err == nil: // reverted
		a.forgetGap(h)
		if !latest {
			return false, a.endOlder(ctx, r, rcpt.BlockNumber.Uint64(), "its transaction reverted")
		}
		return false, a.resign(ctx, r, fmt.Sprintf("transaction %s reverted in block %d", r.TxHash, rcpt.BlockNumber))
	case !isNotFound(err):
		return true, a.fail(ctx, r, fmt.Errorf("read the receipt of %s: %w", r.TxHash, err))
	}

	chainNonce, err := a.b.NonceAt(ctx, a.from, nil)
	if err != nil {
		return true, a.fail(ctx, r, fmt.Errorf("read the account nonce: %w", err))
	}
	if chainNonce > r.Nonce {
		if latest && a.holds(ctx, r) {
			// The contract holds r's roots: the transaction was mined
			// and the node has not indexed its receipt yet (go-ethereum
			// indexes transactions in the background). Wait for it
			// rather than sign the version again.
			return true, a.waiting(ctx, r)
		}
		a.forgetGap(h)
		why := fmt.Sprintf("transaction %s was replaced or dropped: another transaction used its nonce %d", r.TxHash, r.Nonce)
		if !latest {
			return false, a.endOlder(ctx, r, 0, why)
		}
		return false, a.resign(ctx, r, why)
	}
	pending, err := a.b.PendingNonceAt(ctx, a.from)
	if err != nil {
		return true, a.fail(ctx, r, fmt.Errorf("read the pending nonce: %w", err))
	}
	switch {
	case pending > r.Nonce: // waiting in the pool
		a.forgetGap(h)
		return true, a.waiting(ctx, r)
	case pending == r.Nonce: // the node does not hold it
		a.forgetGap(h)
		a.log.Info("broadcasting the stored transaction again", "list_version", r.ListVersion, "tx", r.TxHash, "nonce", r.Nonce)
		return true, a.broadcast(ctx, r)
	}
	// A gap: nonces pending..r.Nonce-1 are missing.
	if _, _, err := a.b.TransactionByHash(ctx, h); isNotFound(err) {
		if err := a.broadcast(ctx, r); err != nil {
			return true, err
		}
	}
	since := a.gapSeen(h)
	if a.now().Sub(since) < a.opts.GapGrace {
		return true, a.waiting(ctx, r)
	}
	a.forgetGap(h)
	why := fmt.Sprintf("nonce gap: transaction %s has nonce %d but the account's next is %d", r.TxHash, r.Nonce, pending)
	if !latest {
		return false, a.endOlder(ctx, r, 0, why)
	}
	return false, a.resign(ctx, r, why)
}

// holds reports whether the contract holds r's list version and roots (false
// when it cannot be read).
func (a *Anchorer) holds(ctx context.Context, r cairn.Anchor) bool {
	on, err := bind.Call(a.contract, &bind.CallOpts{Context: ctx}, a.verifier.PackRoots(), a.verifier.UnpackRoots)
	return err == nil && on.ListVersion == r.ListVersion && onChainRoots(on) == chain.RootsOf(r)
}

// mined records the block of r's transaction and makes r synced once the
// head is Confirmations-1 blocks past it.
func (a *Anchorer) mined(ctx context.Context, r cairn.Anchor, block uint64) error {
	head, err := a.b.BlockNumber(ctx)
	if err != nil {
		return a.fail(ctx, r, fmt.Errorf("read the head block number: %w", err))
	}
	a.head.Store(max(a.head.Load(), head))
	if head+1 >= block+a.opts.Confirmations {
		return a.synced(ctx, r, block)
	}
	a.logWaiting(a.log, r, block, head)
	if r.BlockNumber == block && r.Status == chain.AnchorSubmitted {
		return nil
	}
	_, err = a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.BlockNumber, x.Error, x.Attempts, x.NextAttempt = chain.AnchorSubmitted, block, "", 0, time.Time{}
		return nil
	})
	return err
}

// logWaiting says, once per new head, how many blocks r's transaction still
// needs: on a chain that mines only when it has transactions (ganache
// without --miner.blockTime) they may never come, and the status alone
// would stay submitted without a word. The oracle logs its own waits on
// log.
func (a *Anchorer) logWaiting(log *slog.Logger, r cairn.Anchor, block, head uint64) {
	a.mu.Lock()
	seen := a.waitHead == head && a.waitTx == r.TxHash
	a.waitHead, a.waitTx = head, r.TxHash
	a.mu.Unlock()
	if !seen {
		log.Info("waiting for confirmations", "list_version", r.ListVersion, "tx", r.TxHash, "block", block, "head", head,
			"confirmations", a.opts.Confirmations, "blocks_needed", block+a.opts.Confirmations-(head+1))
	}
}

func (a *Anchorer) synced(ctx context.Context, r cairn.Anchor, block uint64) error {
	now := a.now()
	r, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.BlockNumber, x.SyncedAt, x.Error, x.Attempts, x.NextAttempt = chain.AnchorSynced, block, now, "", 0, time.Time{}
		return nil
	})
	if err == nil && a.onSynced != nil {
		a.onSynced()
	}
	if err == nil && a.opts.OnSynced != nil {
		a.opts.OnSynced(ctx, r)
	}
	if err == nil {
		a.log.Info("list roots anchored", "list_version", r.ListVersion, "tx", r.TxHash, "block", block,
			"sanctions_root", r.SanctionsRoot, "community_root", r.CommunityRoot,
			"exclusion_root", r.ExclusionRoot, "community_exclusion_root", r.CommunityExclusionRoot)
	}
	return err
}

// waiting puts r back to submitted after a failure that went away.
func (a *Anchorer) waiting(ctx context.Context, r cairn.Anchor) error {
	if r.Status == chain.AnchorSubmitted && r.Error == "" {
		return nil
	}
	_, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.Error, x.Attempts, x.NextAttempt = chain.AnchorSubmitted, "", 0, time.Time{}
		return nil
	})
	return err
}

// resign drops r's transaction, which can no longer set the roots, keeping
// its hash in PrevTxHashes; the next round signs the version anew. It is a
// compare-and-swap on the transaction hash: should the record hold another
// transaction than the one r was read with (another instance, leader for a
// moment too, signed it since), nothing is changed, so that two leaders
// never wipe each other's transaction.
func (a *Anchorer) resign(ctx context.Context, r cairn.Anchor, why string) error {
	_, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		if x.TxHash != r.TxHash {
			return errTxChanged
		}
		if x.TxHash != "" {
			x.PrevTxHashes = append(x.PrevTxHashes, x.TxHash)
		}
		x.Status, x.Error, x.RawTx, x.TxHash, x.Nonce, x.BlockNumber = chain.AnchorPending, why, nil, "", 0, 0
		x.NextAttempt = time.Time{}
		return nil
	})
	if errors.Is(err, errTxChanged) {
		a.log.Info("not signing the list version again: its record holds another transaction now",
			"list_version", r.ListVersion, "read_tx", r.TxHash)
		return nil
	}
	if err == nil {
		a.log.Warn("signing the list version again", "list_version", r.ListVersion, "reason", why)
	}
	return err
}

// errTxChanged stops an update of a record whose transaction changed since
// it was read.
var errTxChanged = errors.New("evm: the record holds another transaction")

// endOlder supersedes an older version whose transaction ended.
func (a *Anchorer) endOlder(ctx context.Context, r cairn.Anchor, block uint64, why string) error {
	_, err := a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.BlockNumber, x.Error, x.NextAttempt = chain.AnchorSuperseded, block, why, time.Time{}
		return nil
	})
	return err
}

func (a *Anchorer) gapSeen(h common.Hash) time.Time {
	a.mu.Lock()
	defer a.mu.Unlock()
	t, ok := a.gapSince[h]
	if !ok {
		t = a.now()
		a.gapSince[h] = t
	}
	return t
}

func (a *Anchorer) forgetGap(h common.Hash) {
	a.mu.Lock()
	delete(a.gapSince, h)
	a.mu.Unlock()
}
