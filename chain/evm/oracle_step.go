package evm

import (
	"context"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/store"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// Step runs one round: it follows the transaction in flight, or plans and
// sends the next batch of the newest synced version, or finds it synced.
// Run calls it; tests call it directly. Chain failures are recorded in
// the store, not returned; only store errors are.
func (o *Oracle) Step(ctx context.Context) error {
	o.a.sendMu.Lock()
	defer o.a.sendMu.Unlock()
	ctx, cancel := context.WithTimeout(ctx, o.a.opts.CallTimeout)
	defer cancel()
	synced, ok, err := o.a.Synced(ctx)
	if err != nil || !ok {
		return err
	}
	r, err := store.LatestAnchor(ctx, o.a.opts.Store, o.target)
	switch {
	case err != nil && !cairn.IsCode(err, cairn.ENOTFOUND):
		return err
	case err != nil || r.ListVersion < synced.ListVersion:
		if err == nil {
			if done, err := o.endOlder(ctx, r, synced.ListVersion); err != nil || !done {
				return err
			}
		}
		if r, err = o.create(ctx, synced); err != nil {
			return err
		}
	}
	if r.Status == chain.OracleSynced || r.Status == chain.AnchorSuperseded || o.a.now().Before(r.NextAttempt) {
		return nil
	}
	if len(r.RawTx) != 0 {
		if done, err := o.track(ctx, r); err != nil || !done {
			return err
		}
		if r, err = o.reread(ctx, r.ListVersion); err != nil {
			return err
		}
	}
	// A newer version being anchored would make these proofs fail: leave
	// the nonce to the anchorer until it is synced.
	if latest, err := store.LatestAnchor(ctx, o.a.opts.Store, o.a.target); err != nil {
		return err
	} else if latest.ListVersion != r.ListVersion {
		return nil
	}
	return o.sendNext(ctx, r)
}

func (o *Oracle) reread(ctx context.Context, v uint64) (cairn.Anchor, error) {
	rs, err := o.a.opts.Store.ListAnchors(ctx, o.target, v+1, 1)
	if err != nil {
		return cairn.Anchor{}, err
	}
	if len(rs) == 0 || rs[0].ListVersion != v {
		return cairn.Anchor{}, fmt.Errorf("evm: the oracle record of list version %d is gone", v)
	}
	return rs[0], nil
}

// create records the synced version the oracle now follows.
func (o *Oracle) create(ctx context.Context, synced cairn.Anchor) (cairn.Anchor, error) {
	roots := chain.RootsOf(synced)
	r := cairn.Anchor{Target: o.target, ListVersion: synced.ListVersion, Status: chain.OracleSyncing,
		SanctionsRoot: hex0x(roots.Sanctions[:]), CommunityRoot: hex0x(roots.Community[:]),
		ExclusionRoot: hex0x(roots.Exclusion[:]), CommunityExclusionRoot: hex0x(roots.CommunityExclusion[:]),
		From: strings.ToLower(o.a.from.Hex()), CreatedAt: o.a.now()}
	if err := o.a.opts.Store.CreateAnchor(ctx, r); err != nil && !cairn.IsCode(err, cairn.ECONFLICT) {
		return cairn.Anchor{}, err
	}
	o.log.Info("keeping the oracle in step with list version", "list_version", synced.ListVersion)
	return o.reread(ctx, synced.ListVersion)
}

// endOlder settles the record of an older version: a transaction still
// in flight is followed to its end first (done false until then); the
// record is then superseded.
func (o *Oracle) endOlder(ctx context.Context, r cairn.Anchor, by uint64) (done bool, err error) {
	if r.Status == chain.OracleSynced || r.Status == chain.AnchorSuperseded {
		return true, nil
	}
	if len(r.RawTx) != 0 {
		if done, err := o.track(ctx, r); err != nil || !done {
			return false, err
		}
	}
	_, err = o.a.opts.Store.UpdateAnchor(ctx, o.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.Error, x.NextAttempt = chain.AnchorSuperseded, fmt.Sprintf("superseded by list version %d", by), time.Time{}
		dropTx(x)
		return nil
	})
	return err == nil, err
}

// track follows r's transaction; done reports that it ended (mined, or
// never minable) and was dropped from the record, so that the next batch
// can be planned from the contract's events. It is judged by the nonces
// as the anchorer judges its own (anchor_track.go).
func (o *Oracle) track(ctx context.Context, r cairn.Anchor) (done bool, err error) {
	h := common.HexToHash(r.TxHash)
	rcpt, err := o.a.b.TransactionReceipt(ctx, h)
	switch {
	case err == nil:
		o.a.forgetGap(h)
		if rcpt.Status != types.ReceiptStatusSuccessful {
			// The root changed under it, or a bug: plan again, later.
			return true, o.fail(ctx, r, fmt.Errorf("transaction %s reverted in block %d", r.TxHash, rcpt.BlockNumber), true)
		}
		// The next batch is planned from confirmed events only (scan):
		// until this one is confirmed too, planning would send it again.
		block := rcpt.BlockNumber.Uint64()
		head, err := o.a.b.BlockNumber(ctx)
		if err != nil {
			return false, o.fail(ctx, r, fmt.Errorf("read the head block number: %w", err), false)
		}
		if head+1 < block+o.a.opts.Confirmations {
			o.a.logWaiting(o.log, r, block, head)
			return false, nil
		}
		return true, o.ended(ctx, r, block)
	case !isNotFound(err):
		return false, o.fail(ctx, r, fmt.Errorf("read the receipt of %s: %w", r.TxHash, err), false)
	}
	chainNonce, err := o.a.b.NonceAt(ctx, o.a.from, nil)
	if err != nil {
		return false, o.fail(ctx, r, fmt.Errorf("read the account nonce: %w", err), false)
	}
	if chainNonce > r.Nonce {
		// Its nonce is used: mined with its receipt not indexed yet (a
		// node indexes in the background), or replaced. A transaction the
		// node holds as mined is waited for, and so is any for GapGrace,
		// so that a mined batch ends as mined (counted once, confirmed)
		// rather than as replaced; after that the contract's events up to
		// the head tell what is left to do.
		if _, isPending, err := o.a.b.TransactionByHash(ctx, h); err == nil && !isPending {
			return false, nil
		}
		if o.a.now().Sub(o.a.gapSeen(h)) < o.a.opts.GapGrace {
			return false, nil
		}
		o.a.forgetGap(h)
		return true, o.ended(ctx, r, 0)
	}
	pending, err := o.a.b.PendingNonceAt(ctx, o.a.from)
	if err != nil {
		return false, o.fail(ctx, r, fmt.Errorf("read the pending nonce: %w", err), false)
	}
	switch {
	case pending > r.Nonce:
		return false, nil // waiting in the pool
	case pending == r.Nonce:
		o.log.Info("broadcasting the stored oracle transaction again", "list_version", r.ListVersion, "tx", r.TxHash, "nonce", r.Nonce)
		return false, o.broadcast(ctx, r)
	}
	if _, _, err := o.a.b.TransactionByHash(ctx, h); isNotFound(err) {
		if err := o.broadcast(ctx, r); err != nil {
			return false, err
		}
	}
	if o.a.now().Sub(o.a.gapSeen(h)) < o.a.opts.GapGrace {
		return false, nil
	}
	o.a.forgetGap(h)
	return true, o.ended(ctx, r, 0)
}

// ended drops r's transaction from the record once it ended; block is
// where it was mined (0: not mined).
func (o *Oracle) ended(ctx context.Context, r cairn.Anchor, block uint64) error {
	_, err := o.a.opts.Store.UpdateAnchor(ctx, o.target, r.ListVersion, func(x *cairn.Anchor) error {
		if x.TxHash != r.TxHash {
			return errTxChanged
		}
		if block != 0 {
			x.Batches++
			x.BlockNumber = block
		}
		dropTx(x)
		x.Status, x.Error, x.Attempts, x.NextAttempt = chain.OracleSyncing, "", 0, time.Time{}
		return nil
	})
	if err == nil {
		o.log.Info("oracle transaction ended", "list_version", r.ListVersion, "tx", r.TxHash, "block", block)
		o.nudge()
	} else if err == errTxChanged {
		err = nil
	}
	return err
}

// broadcast sends r's stored transaction again.
func (o *Oracle) broadcast(ctx context.Context, r cairn.Anchor) error {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(r.RawTx); err != nil {
		return fmt.Errorf("evm: stored oracle transaction of list version %d: %w", r.ListVersion, err)
	}
	if err := o.a.push(ctx, tx); err != nil {
		return o.fail(ctx, r, fmt.Errorf("broadcast %s: %w", r.TxHash, err), false)
	}
	time.AfterFunc(min(o.a.opts.PollInterval, time.Second), o.nudge)
	return nil
}

// scan reads the contract's oracle events from where the last scan ended
// up to the newest confirmed block (Confirmations-1 blocks below the
// head) into marked. Blocks above it may still be replaced by a reorg:
// an event read from one could name a change the chain then forgets,
// which marked would keep (the scan never reads a block twice), and the
// oracle would skip work, or report a storage in step that is not.
func (o *Oracle) scan(ctx context.Context) error {
	head, err := o.a.b.BlockNumber(ctx)
	if err != nil {
		return fmt.Errorf("read the head block number: %w", err)
	}
	if head+1 < o.a.opts.Confirmations {
		return fmt.Errorf("no confirmed block yet: head %d, %d confirmations", head, o.a.opts.Confirmations)
	}
	last := head + 1 - o.a.opts.Confirmations
	if !o.started {
		from, err := o.fromBlock(ctx)
		if err != nil {
			return err
		}
		if from > last {
			return fmt.Errorf("the oracle's first block %d is past the newest confirmed block %d: events before it would be missed", from, last)
		}
		o.next, o.started = from, true
	}
	for o.next <= last {
		to := min(last, o.next+o.opts.LogRange-1)
		logs, err := o.a.b.FilterLogs(ctx, ethereum.FilterQuery{
			FromBlock: new(big.Int).SetUint64(o.next), ToBlock: new(big.Int).SetUint64(to),
			Addresses: []common.Address{o.a.opts.Contract}, Topics: [][]common.Hash{{addedTopic, removedTopic}},
		})
		if err != nil {
			return fmt.Errorf("read the oracle events of blocks %d-%d: %w", o.next, to, err)
		}
		for i := range logs {
			if err := o.apply(&logs[i]); err != nil {
				return err
			}
		}
		o.next = to + 1
	}
	return nil
}

func (o *Oracle) apply(l *types.Log) error {
	if l.Removed || len(l.Topics) == 0 {
		return nil
	}
	v := o.a.verifier
	switch l.Topics[0] {
	case addedTopic:
		ev, err := v.UnpackSanctionedAddressesAddedEvent(l)
		if err != nil {
			return fmt.Errorf("decode SanctionedAddressesAdded in %s: %w", l.TxHash, err)
		}
		for _, a := range ev.Addrs {
			o.marked[a] = struct{}{}
		}
	case removedTopic:
		ev, err := v.UnpackSanctionedAddressesRemovedEvent(l)
		if err != nil {
			return fmt.Errorf("decode SanctionedAddressesRemoved in %s: %w", l.TxHash, err)
		}
		for _, a := range ev.Addrs {
			delete(o.marked, a)
		}
	}
	return nil
}

// fromBlock is OracleOptions.FromBlock, or the first block that anchored
// roots of this contract as recorded (0 when the contract held a version
// before cairn recorded one of its own).
func (o *Oracle) fromBlock(ctx context.Context) (uint64, error) {
	if o.opts.FromBlock != 0 {
		return o.opts.FromBlock, nil
	}
	from, before := uint64(0), uint64(0)
	for {
		rs, err := o.a.opts.Store.ListAnchors(ctx, o.a.target, before, 64)
		if err != nil {
			return 0, err
		}
		for _, r := range rs {
			switch {
			case r.Status == chain.AnchorSynced && r.BlockNumber == 0:
				from = 0 // held already: set by someone else first
			case r.BlockNumber != 0:
				from = r.BlockNumber
			}
		}
		if len(rs) < 64 {
			return from, nil
		}
		before = rs[len(rs)-1].ListVersion
	}
}
