package evm_test

import (
	"bufio"
	"context"
	"crypto/ecdsa"
	"math/big"
	"os"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/crypto"
	"github.com/ethereum/go-ethereum/ethclient/simulated"
)

var ctx = context.Background()

// chainEnv is a simulated chain with funded keys: owner deploys, others
// are strangers unless granted.
type chainEnv struct {
	sim      *simulated.Backend
	client   simulated.Client
	chainID  *big.Int
	owner    *ecdsa.PrivateKey
	stranger *ecdsa.PrivateKey
}

func newKey(t testing.TB) *ecdsa.PrivateKey {
	t.Helper()
	k, err := crypto.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func newChain(t testing.TB) *chainEnv {
	t.Helper()
	e := &chainEnv{owner: newKey(t), stranger: newKey(t)}
	eth := new(big.Int).Exp(big.NewInt(10), big.NewInt(18), nil)
	funds := new(big.Int).Mul(eth, big.NewInt(100))
	e.sim = simulated.NewBackend(types.GenesisAlloc{
		evm.Address(e.owner):    {Balance: funds},
		evm.Address(e.stranger): {Balance: funds},
	})
	t.Cleanup(func() { e.sim.Close() })
	e.client = e.sim.Client()
	id, err := e.client.ChainID(ctx)
	if err != nil {
		t.Fatal(err)
	}
	e.chainID = id
	return e
}

// deploy deploys the verifier from the owner key, mining blocks while it
// waits.
func (e *chainEnv) deploy(t testing.TB) common.Address {
	t.Helper()
	type res struct {
		addr common.Address
		err  error
	}
	done := make(chan res, 1)
	go func() {
		addr, _, err := evm.Deploy(ctx, e.client, e.owner, e.chainID)
		done <- res{addr, err}
	}()
	for {
		select {
		case r := <-done:
			if r.err != nil {
				t.Fatal(r.err)
			}
			return r.addr
		case <-time.After(20 * time.Millisecond):
			e.sim.Commit()
		}
	}
}

// transact sends calldata to the contract from key and mines it; it
// returns the error of the gas estimate (the revert) if any.
func (e *chainEnv) transact(t testing.TB, addr common.Address, key *ecdsa.PrivateKey, data []byte) (*types.Receipt, error) {
	t.Helper()
	c := evm.NewVerifier().Instance(e.client, addr)
	opts := bind.NewKeyedTransactor(key, e.chainID)
	tx, err := bind.Transact(c, opts, data)
	if err != nil {
		return nil, err
	}
	e.sim.Commit()
	rcpt, err := e.client.TransactionReceipt(ctx, tx.Hash())
	if err != nil {
		t.Fatal(err)
	}
	return rcpt, nil
}

// revertError decodes the custom error of a reverted call.
func revertError(t testing.TB, err error) any {
	t.Helper()
	data, ok := evm.RevertData(err)
	if !ok {
		t.Fatalf("error %v carries no revert data", err)
	}
	v, uerr := evm.NewVerifier().UnpackError(data)
	if uerr != nil {
		t.Fatalf("unpack revert %x: %v", data, uerr)
	}
	return v
}

// fixtureLeaves reads the OFAC list fixtures as (family, canonical)
// pairs, as cairn lists them.
func fixtureLeaves(t testing.TB) (evmAddrs []string, pairs [][2]string) {
	t.Helper()
	for _, f := range []struct {
		file string
		fam  screening.Family
	}{{"testdata/sanctioned_addresses_ETH.txt", screening.EVM}, {"testdata/sanctioned_addresses_XBT.txt", screening.Bitcoin}} {
		fh, err := os.Open(f.file)
		if err != nil {
			t.Fatal(err)
		}
		sc := bufio.NewScanner(fh)
		for sc.Scan() {
			canon, st := screening.Normalize(f.fam, sc.Text())
			if st == screening.StatusInvalid {
				continue
			}
			pairs = append(pairs, [2]string{string(f.fam), canon})
			if f.fam == screening.EVM {
				evmAddrs = append(evmAddrs, canon)
			}
		}
		fh.Close()
		if err := sc.Err(); err != nil {
			t.Fatal(err)
		}
	}
	if len(evmAddrs) < 10 || len(pairs) < 100 {
		t.Fatalf("fixtures gave %d EVM addresses of %d", len(evmAddrs), len(pairs))
	}
	return evmAddrs, pairs
}

func newTree(t testing.TB, pairs [][2]string) *merkle.StandardTree {
	t.Helper()
	tr, err := merkle.NewStrings2Tree(pairs, true)
	if err != nil {
		t.Fatal(err)
	}
	return tr
}

func proofOf(t testing.TB, tr *merkle.StandardTree, fam, addr string) [][32]byte {
	t.Helper()
	p, err := tr.ProofOf([]any{fam, addr})
	if err != nil {
		t.Fatalf("proof of (%s, %s): %v", fam, addr, err)
	}
	return hashes(p)
}

func hashes(hs []merkle.Hash) [][32]byte {
	out := make([][32]byte, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}
