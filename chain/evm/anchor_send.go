package evm

import (
	"context"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/rpc"
)

// errSigned stops an update that would sign a version twice.
var errSigned = errors.New("evm: this list version already has a transaction")

// send signs the setRoots transaction of r, stores it, then broadcasts it.
// Before signing it reads the contract: a version the contract already
// holds is synced without a transaction, an older one is refused.
func (a *Anchorer) send(ctx context.Context, r cairn.Anchor) error {
	roots := chain.RootsOf(r)
	if code, err := a.b.CodeAt(ctx, a.opts.Contract, nil); err != nil {
		return a.fail(ctx, r, fmt.Errorf("read the contract code: %w", err))
	} else if len(code) == 0 {
		return a.fail(ctx, r, fmt.Errorf("%w %s on chain %s (deploy it with cairn contract deploy)", ErrNoContract, a.opts.Contract.Hex(), a.chainID))
	}
	on, err := bind.Call(a.contract, &bind.CallOpts{Context: ctx}, a.verifier.PackRoots(), a.verifier.UnpackRoots)
	if err != nil {
		return a.fail(ctx, r, fmt.Errorf("read the contract's roots: %w", err))
	}
	switch {
	case on.ListVersion == r.ListVersion && onChainRoots(on) == roots:
		return a.synced(ctx, r, 0) // already there (an earlier transaction of ours)
	case on.ListVersion >= r.ListVersion:
		return a.fail(ctx, r, fmt.Errorf("the contract holds list version %d, not older than %d: another writer sets its roots", on.ListVersion, r.ListVersion))
	}

	data := a.verifier.PackSetRoots(roots.Sanctions, roots.Community, roots.Exclusion, roots.CommunityExclusion, r.ListVersion)
	nonce, err := a.b.PendingNonceAt(ctx, a.from)
	if err != nil {
		return a.fail(ctx, r, fmt.Errorf("read the account nonce: %w", err))
	}
	gas, err := a.b.EstimateGas(ctx, ethereum.CallMsg{From: a.from, To: &a.opts.Contract, Data: data})
	if err != nil {
		return a.fail(ctx, r, a.explainRevert("setRoots would fail", err))
	}
	tx, err := a.sign(ctx, nonce, gas+gas/4, data)
	if err != nil {
		return a.fail(ctx, r, err)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	// Persist first: after a crash the same bytes are broadcast again.
	now := a.now()
	r, err = a.opts.Store.UpdateAnchor(ctx, a.target, r.ListVersion, func(x *cairn.Anchor) error {
		if len(x.RawTx) != 0 {
			return errSigned
		}
		x.Status, x.RawTx, x.TxHash, x.Nonce, x.From = chain.AnchorSubmitted, raw, tx.Hash().Hex(), nonce, strings.ToLower(a.from.Hex())
		x.BlockNumber, x.SubmittedAt, x.Error, x.Attempts, x.NextAttempt = 0, now, "", 0, now
		return nil
	})
	if err != nil {
		return err
	}
	a.log.Info("sending the roots", "list_version", r.ListVersion, "tx", r.TxHash, "nonce", nonce)
	return a.broadcast(ctx, r)
}

// sign builds an EIP-1559 transaction when the chain has a base fee (fee
// cap: twice the base fee plus the suggested tip), a legacy one otherwise.
func (a *Anchorer) sign(ctx context.Context, nonce, gas uint64, data []byte) (*types.Transaction, error) {
	head, err := a.b.HeaderByNumber(ctx, nil)
	if err != nil {
		return nil, fmt.Errorf("read the head block: %w", err)
	}
	to := a.opts.Contract
	var txd types.TxData
	if head.BaseFee != nil {
		tip, err := a.b.SuggestGasTipCap(ctx)
		if err != nil {
			return nil, fmt.Errorf("suggest a tip: %w", err)
		}
		feeCap := new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), tip)
		txd = &types.DynamicFeeTx{ChainID: a.chainID, Nonce: nonce, GasTipCap: tip, GasFeeCap: feeCap, Gas: gas, To: &to, Data: data}
	} else {
		price, err := a.b.SuggestGasPrice(ctx)
		if err != nil {
			return nil, fmt.Errorf("suggest a gas price: %w", err)
		}
		txd = &types.LegacyTx{Nonce: nonce, GasPrice: price, Gas: gas, To: &to, Data: data}
	}
	return types.SignNewTx(a.opts.Key, types.LatestSignerForChainID(a.chainID), txd)
}

// broadcast sends r's stored transaction. A node that already holds it is
// not a failure; any other refusal is recorded, and the next round decides
// from the chain's nonces whether to send it again or sign anew.
func (a *Anchorer) broadcast(ctx context.Context, r cairn.Anchor) error {
	tx := new(types.Transaction)
	if err := tx.UnmarshalBinary(r.RawTx); err != nil {
		return fmt.Errorf("evm: stored transaction of list version %d: %w", r.ListVersion, err)
	}
	if err := a.push(ctx, tx); err != nil {
		return a.fail(ctx, r, fmt.Errorf("broadcast %s: %w", r.TxHash, err))
	}
	// Look for the receipt again soon rather than a poll interval later:
	// on a fast chain it is there within a second.
	time.AfterFunc(min(a.opts.PollInterval, time.Second), a.nudge)
	return nil
}

// push sends a signed transaction; a node that already holds it is no
// error.
func (a *Anchorer) push(ctx context.Context, tx *types.Transaction) error {
	err := a.b.SendTransaction(ctx, tx)
	if err == nil || isKnown(err) || (isResent(err) && a.nodeHas(ctx, tx.Hash())) {
		return nil
	}
	return err
}

// isKnown reports a node's answer that it already holds the transaction
// (geth: "already known"; others: "known transaction").
func isKnown(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "already known") || strings.Contains(s, "known transaction") || strings.Contains(s, "already imported")
}

// isResent reports the answers a node gives when the same transaction is
// sent again, in the words of one that does not say "known": the same
// nonce at the same price is an underpriced replacement (ganache:
// "transaction underpriced"), and once it is mined its nonce is too low.
// They mean the node has it only when it holds that hash (nodeHas).
func isResent(err error) bool {
	s := strings.ToLower(err.Error())
	return strings.Contains(s, "underpriced") || strings.Contains(s, "nonce too low")
}

// nodeHas reports whether the node holds the transaction h, pending or
// mined.
func (a *Anchorer) nodeHas(ctx context.Context, h common.Hash) bool {
	tx, _, err := a.b.TransactionByHash(ctx, h)
	return err == nil && tx != nil
}

// explainRevert turns a revert of the verifier into its custom error.
func (a *Anchorer) explainRevert(what string, err error) error {
	if data, ok := RevertData(err); ok {
		switch e, _ := a.verifier.UnpackError(data); e := e.(type) {
		case *VerifierUnauthorized:
			return fmt.Errorf("%s: Unauthorized(%s): the key is neither the contract's owner nor an updater", what, e.Caller.Hex())
		case *VerifierStaleListVersion:
			return fmt.Errorf("%s: StaleListVersion(%d, current %d)", what, e.ListVersion, e.Current)
		}
	}
	return fmt.Errorf("%s: %w", what, err)
}

// RevertData returns the revert data a node attached to a failed call or
// gas estimate: a hex string (geth) or an object whose "result" is one
// (ganache).
func RevertData(err error) ([]byte, bool) {
	var de rpc.DataError
	if !errors.As(err, &de) {
		return nil, false
	}
	s, ok := de.ErrorData().(string)
	if m, isMap := de.ErrorData().(map[string]any); isMap {
		s, ok = m["result"].(string)
	}
	if !ok || !strings.HasPrefix(s, "0x") {
		return nil, false
	}
	return common.FromHex(s), true
}
