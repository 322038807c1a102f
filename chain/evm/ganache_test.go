package evm_test

import (
	"crypto/ecdsa"
	"log/slog"
	"math/big"
	"strings"
	"testing"
	"time"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/ethclient"
)

// ganache dials the local EVM node (evmtest.URL).
func ganache(t testing.TB) *ethclient.Client {
	t.Helper()
	c, err := evm.Dial(ctx, evmtest.URL(t))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(c.Close)
	if _, err := c.ChainID(ctx); err != nil {
		t.Fatalf("EVM node at CAIRN_TEST_EVM_RPC_URL: %v", err)
	}
	return c
}

// deploy checks the node's chain id and deploys the verifier on it with
// key: the contract's address and the chain id.
func deploy(t testing.TB, c *ethclient.Client, key *ecdsa.PrivateKey) (common.Address, *big.Int) {
	t.Helper()
	id, err := evm.CheckChainID(ctx, c, 0)
	if err != nil {
		t.Fatal(err)
	}
	addr, _, err := evm.Deploy(ctx, c, key, id)
	if err != nil {
		t.Fatal(err)
	}
	return addr, id
}

// TestGanacheAnchor: on a real JSON-RPC node, deploy the verifier, anchor
// two versions of a real OFAC tree through the Anchorer, check proofs with
// the view functions and decode a stranger's refused update.
func TestGanacheAnchor(t *testing.T) {
	c := ganache(t)
	key, _ := evmtest.Key(t, evmtest.KeyChainEVM)
	addr, id := deploy(t, c, key)
	db, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db.Close() })
	a, err := evm.NewAnchorer(ctx, evm.Options{Backend: c, Key: key, Contract: addr, Confirmations: 1, Store: db,
		Clock: cairn.SystemClock{}, Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	if st := status(t, a); st.ChainID() != id.Uint64() {
		t.Fatalf("chain id %d, node %s", st.ChainID(), id)
	}
	evmAddrs, pairs := fixtureLeaves(t)
	t1 := newTree(t, pairs)
	t2 := newTree(t, pairs[1:]) // drops evmAddrs[0]
	w := views{t: t, v: evm.NewVerifier(), c: evm.NewVerifier().Instance(c, addr)}
	dropped, kept := evmAddrs[0], evmAddrs[1]
	for v, tr := range []*merkle.StandardTree{t1, t2} {
		version := uint64(v + 1)
		submit(t, a, version, chain.Roots{Sanctions: tr.Root(), Community: [32]byte{}})
		for deadline := time.Now().Add(20 * time.Second); status(t, a).Status != chain.AnchorSynced || status(t, a).ListVersion != version; {
			if time.Now().After(deadline) {
				t.Fatalf("status %+v", status(t, a))
			}
			step(t, a)
			time.Sleep(20 * time.Millisecond)
		}
	}
	if st := status(t, a); st.TxHash == "" || st.BlockNumber == 0 {
		t.Fatalf("synced status %+v", st)
	}
	pk := proofOf(t, t2, "evm", kept)
	if !w.isSanctioned(kept, pk) || !w.isListed("evm", kept, pk) || !w.verify(pk, merkle.LeafHashStrings2("evm", kept)) {
		t.Fatal("a listed address does not verify on ganache")
	}
	old := proofOf(t, t1, "evm", dropped)
	if w.isSanctioned(dropped, old) || w.isSanctioned(kept, proofOf(t, t1, "evm", kept)) {
		t.Fatal("a proof for the old root verifies on ganache")
	}
	mp, err := t2.MultiProof([]int{0, 1, 2})
	if err != nil {
		t.Fatal(err)
	}
	if !w.multi(mp) {
		t.Fatal("multiproof does not verify on ganache")
	}
	// A stranger's update reverts with Unauthorized, decoded from the
	// node's error data.
	stranger := newKey(t)
	_, err = bind.Transact(evm.NewVerifier().Instance(c, addr), bind.NewKeyedTransactor(stranger, id),
		evm.NewVerifier().PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 9))
	if ue, ok := revertError(t, err).(*evm.VerifierUnauthorized); !ok || ue.Caller != evm.Address(stranger) {
		t.Fatalf("stranger's setRoot: %v", err)
	}
	// An anchorer with that key reports the decoded error and sends nothing.
	db2, err := pebble.Open(t.TempDir(), pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { db2.Close() })
	sa, err := evm.NewAnchorer(ctx, evm.Options{Backend: c, Key: stranger, ChainID: id.Uint64(), Contract: addr, Store: db2,
		Logger: slog.New(slog.DiscardHandler)})
	if err != nil {
		t.Fatal(err)
	}
	submit(t, sa, 3, chain.Roots{Sanctions: t1.Root(), Community: [32]byte{}})
	step(t, sa)
	if st := status(t, sa); st.Status != chain.AnchorFailed || !strings.Contains(st.Error, "Unauthorized("+evm.Address(stranger).Hex()+")") {
		t.Fatalf("stranger's anchorer: %+v", st)
	}
}
