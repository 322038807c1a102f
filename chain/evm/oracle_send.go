package evm

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
)

// oraclePlan is what the contract's storage must change for a list
// version: removals first (ascending), then additions (ascending).
type oraclePlan struct {
	remove, add []common.Address
}

func (p oraclePlan) pending() int { return len(p.remove) + len(p.add) }

// plan compares the marked addresses with the list's sanctions tree.
func (o *Oracle) plan(list chain.OracleList) oraclePlan {
	var p oraclePlan
	for a := range o.marked {
		if !list.IsSanctioned(a) {
			p.remove = append(p.remove, a)
		}
	}
	slices.SortFunc(p.remove, func(x, y common.Address) int { return bytes.Compare(x[:], y[:]) })
	for a := range list.Sanctioned() {
		if _, ok := o.marked[a]; !ok {
			p.add = append(p.add, a)
		}
	}
	return p
}

// sendNext plans r's version from the contract's events and sends the
// next batch, or records the version synced when nothing is left.
func (o *Oracle) sendNext(ctx context.Context, r cairn.Anchor) error {
	list, ok := o.opts.Lists.OracleList(chain.RootsOf(r))
	if !ok {
		return o.fail(ctx, r, fmt.Errorf("list version %d is not held by this instance (a newer one replaced it); the oracle follows the next version anchored", r.ListVersion), false)
	}
	if err := o.scan(ctx); err != nil {
		return o.fail(ctx, r, err, false)
	}
	p := o.plan(list)
	if p.pending() == 0 {
		return o.synced(ctx, r)
	}
	kind, accounts := oracleRemove, p.remove
	if len(accounts) == 0 {
		kind, accounts = oracleAdd, p.add
	}
	data, n, gas, err := o.fit(ctx, list, kind, accounts)
	if err != nil {
		return o.fail(ctx, r, err, false)
	}
	nonce, err := o.a.b.PendingNonceAt(ctx, o.a.from)
	if err != nil {
		return o.fail(ctx, r, fmt.Errorf("read the account nonce: %w", err), false)
	}
	tx, err := o.a.sign(ctx, nonce, gas, data)
	if err != nil {
		return o.fail(ctx, r, err, false)
	}
	raw, err := tx.MarshalBinary()
	if err != nil {
		return err
	}
	// Persist first: after a crash the same bytes are broadcast again.
	now := o.a.now()
	r, err = o.a.opts.Store.UpdateAnchor(ctx, o.target, r.ListVersion, func(x *cairn.Anchor) error {
		if len(x.RawTx) != 0 {
			return errSigned
		}
		x.Status, x.RawTx, x.TxHash, x.Nonce, x.From = chain.OracleSyncing, raw, tx.Hash().Hex(), nonce, strings.ToLower(o.a.from.Hex())
		x.Pending, x.SubmittedAt, x.Error, x.Attempts, x.NextAttempt = p.pending(), now, "", 0, time.Time{}
		return nil
	})
	if err != nil {
		return err
	}
	o.log.Info("sending an oracle batch", "list_version", r.ListVersion, "kind", kind, "addresses", n,
		"range", addrRange(accounts[:n]), "pending", p.pending(), "gas", gas, "tx", r.TxHash, "nonce", nonce)
	return o.broadcast(ctx, r)
}

// synced records that the contract's storage holds r's version.
func (o *Oracle) synced(ctx context.Context, r cairn.Anchor) error {
	if r.Status == chain.OracleSynced {
		return nil
	}
	now := o.a.now()
	_, err := o.a.opts.Store.UpdateAnchor(ctx, o.target, r.ListVersion, func(x *cairn.Anchor) error {
		x.Status, x.Pending, x.SyncedAt, x.Error, x.Attempts, x.NextAttempt = chain.OracleSynced, 0, now, "", 0, time.Time{}
		return nil
	})
	if err == nil {
		o.log.Info("oracle in step with list version", "list_version", r.ListVersion, "marked", len(o.marked), "transactions", r.Batches)
	}
	return err
}

// maxTxGas is the most gas a transaction may use since Osaka (EIP-7825):
// a node refuses to estimate or take a larger one, whatever the block's
// gas limit.
const maxTxGas = 1 << 24

// gasBudget is the most gas one transaction may use.
func (o *Oracle) gasBudget(ctx context.Context) (uint64, error) {
	if o.opts.MaxGas != 0 {
		return o.opts.MaxGas, nil
	}
	head, err := o.a.b.HeaderByNumber(ctx, nil)
	if err != nil {
		return 0, fmt.Errorf("read the head block: %w", err)
	}
	return min(head.GasLimit/2, maxTxGas), nil
}

// fit returns the call data of the first n accounts of a batch of kind,
// as many as fit the gas budget with a quarter to spare, and the gas
// limit to sign with. It starts from the gas per address last measured
// and shrinks the batch by what the node's estimate says until it fits;
// a batch the node cannot estimate (over the gas a node allows a call,
// when an address costs more than guessed) is halved first.
func (o *Oracle) fit(ctx context.Context, list chain.OracleList, kind string, accounts []common.Address) (data []byte, n int, gas uint64, err error) {
	budget, err := o.gasBudget(ctx)
	if err != nil {
		return nil, 0, 0, err
	}
	n = int(min(uint64(len(accounts)), max(1, budget*3/4/o.gasPer[kind])))
	for {
		if data, err = o.pack(list, kind, accounts[:n]); err != nil {
			return nil, 0, 0, err
		}
		est, err := o.a.b.EstimateGas(ctx, ethereum.CallMsg{From: o.a.from, To: &o.a.opts.Contract, Data: data})
		if err != nil && n > 1 {
			n /= 2
			continue
		} else if err != nil {
			return nil, 0, 0, o.a.explainRevert(fmt.Sprintf("%sSanctioned of %d addresses would fail", kind, n), err)
		}
		o.gasPer[kind] = max(est/uint64(n), 1)
		gas = est + est/4
		if gas <= budget {
			return data, n, gas, nil
		}
		if n == 1 {
			return nil, 0, 0, fmt.Errorf("%sSanctioned of one address needs %d gas, over the bound %d", kind, gas, budget)
		}
		n = max(1, min(n-1, int(uint64(n)*budget/gas*9/10)))
	}
}

// pack builds the call data of a batch.
func (o *Oracle) pack(list chain.OracleList, kind string, accounts []common.Address) ([]byte, error) {
	v := o.a.verifier
	keys := make([][20]byte, len(accounts))
	for i, a := range accounts {
		keys[i] = a
	}
	if kind == oracleAdd {
		ordered, proof, flags, err := list.AddProof(keys)
		if err != nil {
			return nil, fmt.Errorf("multiproof of %d addresses: %w", len(keys), err)
		}
		as := make([]common.Address, len(ordered))
		for i, k := range ordered {
			as[i] = k
		}
		return v.PackAddSanctioned(as, proof, flags), nil
	}
	lows, highs, proofs := make([]common.Address, len(keys)), make([]common.Address, len(keys)), make([][][32]byte, len(keys))
	for i, k := range keys {
		low, high, proof, err := list.RemoveProof(k)
		if err != nil {
			return nil, fmt.Errorf("exclusion proof of %s: %w", accounts[i].Hex(), err)
		}
		lows[i], highs[i], proofs[i] = low, high, proof
	}
	return v.PackRemoveSanctioned(accounts, lows, highs, proofs), nil
}
