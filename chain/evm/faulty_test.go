package evm_test

import (
	"context"
	"errors"
	"math/big"
	"sync"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// faulty wraps a backend: down makes every call the anchorer uses fail as
// an unreachable node does; failSends fails that many broadcasts (the
// service stopping between storing a transaction and sending it);
// unindexed answers every receipt lookup "not found", as a node does while
// its transaction index lags behind its head.
type faulty struct {
	evm.Backend
	mu        sync.Mutex
	down      bool
	failSends int
	unindexed bool
	sent      []common.Hash
	// sendErr, when set, is the answer to every broadcast; the
	// transaction reaches the node first when sendErrAfter is set (a node
	// that holds it and still refuses it, as ganache answers a re-broadcast
	// "transaction underpriced").
	sendErr      error
	sendErrAfter bool
}

var errDown = errors.New(`Post "http://user:secret@127.0.0.1:1/rpc": dial tcp 127.0.0.1:1: connect: connection refused`)

func (f *faulty) setDown(d bool) { f.mu.Lock(); f.down = d; f.mu.Unlock() }

func (f *faulty) check() error {
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.down {
		return errDown
	}
	return nil
}

func (f *faulty) SendTransaction(ctx context.Context, tx *types.Transaction) error {
	if err := f.check(); err != nil {
		return err
	}
	f.mu.Lock()
	if f.failSends > 0 {
		f.failSends--
		f.mu.Unlock()
		return errDown
	}
	f.sent = append(f.sent, tx.Hash())
	sendErr, after := f.sendErr, f.sendErrAfter
	f.mu.Unlock()
	if sendErr == nil {
		return f.Backend.SendTransaction(ctx, tx)
	}
	if after {
		if err := f.Backend.SendTransaction(ctx, tx); err != nil {
			return err
		}
	}
	return sendErr
}

func (f *faulty) CodeAt(ctx context.Context, a common.Address, n *big.Int) ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return f.Backend.CodeAt(ctx, a, n)
}

func (f *faulty) CallContract(ctx context.Context, m ethereum.CallMsg, n *big.Int) ([]byte, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	return f.Backend.CallContract(ctx, m, n)
}

func (f *faulty) PendingNonceAt(ctx context.Context, a common.Address) (uint64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	return f.Backend.PendingNonceAt(ctx, a)
}

func (f *faulty) NonceAt(ctx context.Context, a common.Address, n *big.Int) (uint64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	return f.Backend.NonceAt(ctx, a, n)
}

func (f *faulty) EstimateGas(ctx context.Context, m ethereum.CallMsg) (uint64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	return f.Backend.EstimateGas(ctx, m)
}

func (f *faulty) TransactionReceipt(ctx context.Context, h common.Hash) (*types.Receipt, error) {
	if err := f.check(); err != nil {
		return nil, err
	}
	f.mu.Lock()
	unindexed := f.unindexed
	f.mu.Unlock()
	if unindexed {
		return nil, ethereum.NotFound
	}
	return f.Backend.TransactionReceipt(ctx, h)
}

func (f *faulty) BlockNumber(ctx context.Context) (uint64, error) {
	if err := f.check(); err != nil {
		return 0, err
	}
	return f.Backend.BlockNumber(ctx)
}
