package evm

import (
	"context"
	"crypto/ecdsa"
	"errors"
	"fmt"
	"math/big"
	"strings"

	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient"
)

// Backend is what cairn needs of an EVM node: *ethclient.Client (a
// JSON-RPC endpoint) and go-ethereum's simulated backend both provide it.
type Backend interface {
	bind.ContractBackend
	ethereum.TransactionReader
	ethereum.ChainIDReader
	ethereum.BlockNumberReader
	NonceAt(ctx context.Context, account common.Address, blockNumber *big.Int) (uint64, error)
}

// Dial connects to a JSON-RPC endpoint (http(s):// or ws(s)://).
func Dial(ctx context.Context, url string) (*ethclient.Client, error) {
	if !strings.Contains(url, "://") {
		return nil, fmt.Errorf("EVM RPC URL %q has no scheme (http://, https://, ws:// or wss://)", url)
	}
	return ethclient.DialContext(ctx, url)
}

// Address is the account of key.
func Address(key *ecdsa.PrivateKey) common.Address { return crypto.PubkeyToAddress(key.PublicKey) }

// CheckChainID returns the node's chain id, and an error when want is not 0
// and differs from it: a key signs for one chain only.
func CheckChainID(ctx context.Context, b Backend, want uint64) (*big.Int, error) {
	id, err := b.ChainID(ctx)
	if err != nil {
		return nil, fmt.Errorf("read the chain id: %w", err)
	}
	if want != 0 && (!id.IsUint64() || id.Uint64() != want) {
		return nil, fmt.Errorf("the node serves chain id %s, not %d", id, want)
	}
	return id, nil
}

// Deploy sends the creation transaction of the verifier contract from key
// (which becomes its owner), waits until it is mined and returns the
// contract's address and the transaction hash.
func Deploy(ctx context.Context, b Backend, key *ecdsa.PrivateKey, chainID *big.Int) (common.Address, common.Hash, error) {
	opts := bind.NewKeyedTransactor(key, chainID)
	opts.Context = ctx
	code := common.FromHex(VerifierMetaData.Bin)
	addr, tx, err := bind.DeployContract(opts, code, b, nil)
	if err != nil {
		return common.Address{}, common.Hash{}, fmt.Errorf("send the creation transaction: %w", err)
	}
	rcpt, err := bind.WaitMined(ctx, b, tx.Hash())
	if err != nil {
		return common.Address{}, tx.Hash(), fmt.Errorf("wait for %s: %w", tx.Hash(), err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return common.Address{}, tx.Hash(), fmt.Errorf("creation transaction %s failed", tx.Hash())
	}
	return addr, tx.Hash(), nil
}

// GrantUpdater sends setUpdater(account, true) from key (the contract's
// owner), waits until it is mined and returns the transaction hash: the
// updater is the hot key cairn serve anchors with, and the owner key can
// stay cold.
func GrantUpdater(ctx context.Context, b Backend, key *ecdsa.PrivateKey, chainID *big.Int, contract, account common.Address) (common.Hash, error) {
	opts := bind.NewKeyedTransactor(key, chainID)
	opts.Context = ctx
	v := NewVerifier()
	tx, err := bind.Transact(v.Instance(b, contract), opts, v.PackSetUpdater(account, true))
	if err != nil {
		return common.Hash{}, fmt.Errorf("send setUpdater: %w", err)
	}
	rcpt, err := bind.WaitMined(ctx, b, tx.Hash())
	if err != nil {
		return tx.Hash(), fmt.Errorf("wait for %s: %w", tx.Hash(), err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		return tx.Hash(), fmt.Errorf("setUpdater transaction %s failed", tx.Hash())
	}
	return tx.Hash(), nil
}

// ErrNoContract is returned, wrapped, when there is no code at the
// configured contract address.
var ErrNoContract = errors.New("no contract at the address")
