package evm_test

import (
	"bytes"
	"crypto/ecdsa"
	"math/big"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/ethereum/go-ethereum/accounts/abi"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
	"github.com/ethereum/go-ethereum/ethclient"
)

// guardedToken is the example contract contracts/examples/SanctionsGuard.sol
// compiles to (GuardedToken), from its committed artifacts.
func guardedToken(t *testing.T) (abi.ABI, []byte) {
	t.Helper()
	raw, err := os.ReadFile(filepath.Join(contractsDir, "examples", "GuardedToken.abi"))
	if err != nil {
		t.Fatal(err)
	}
	a, err := abi.JSON(bytes.NewReader(raw))
	if err != nil {
		t.Fatal(err)
	}
	bin, err := os.ReadFile(filepath.Join(contractsDir, "examples", "GuardedToken.bin"))
	if err != nil {
		t.Fatal(err)
	}
	return a, common.FromHex(strings.TrimSpace(string(bin)))
}

// TestGanacheSanctionsGuard: the integrator's example on a real node. A
// token guarded by notSanctioned(msg.sender) against the verifier refuses
// every transfer before any root (fail closed), refuses the transfer of a
// sender proven sanctioned into the oracle's storage (anyone's
// addSanctioned), allows a clear sender's, and refuses everyone's once the
// roots are older than the token's maximum age.
func TestGanacheSanctionsGuard(t *testing.T) {
	c := ganache(t)
	owner, _ := evmtest.Key(t, evmtest.KeyGuard)
	bad, _ := evmtest.Key(t, evmtest.KeyGuardBad)
	clear, _ := evmtest.Key(t, evmtest.KeyGuardClear)
	verifier, id := deploy(t, c, owner)
	const maxAge = 600
	tokenABI, code := guardedToken(t)
	opts := bind.NewKeyedTransactor(owner, id)
	opts.Context = ctx
	args, err := tokenABI.Pack("", verifier, big.NewInt(maxAge), big.NewInt(1000))
	if err != nil {
		t.Fatal(err)
	}
	tokenAddr, tx, err := bind.DeployContract(opts, code, c, args)
	if err != nil {
		t.Fatal(err)
	}
	mined(t, c, tx)
	token := bind.NewBoundContract(tokenAddr, tokenABI, c, c, c)
	transfer := func(from *ecdsa.PrivateKey, to common.Address, amount int64) error {
		t.Helper()
		data, err := tokenABI.Pack("transfer", to, big.NewInt(amount))
		if err != nil {
			t.Fatal(err)
		}
		tx, err := bind.Transact(token, bind.NewKeyedTransactor(from, id), data)
		if err != nil {
			return err
		}
		mined(t, c, tx)
		return nil
	}
	refusal := func(err error) string {
		t.Helper()
		data, ok := evm.RevertData(err)
		if !ok || len(data) < 4 {
			t.Fatalf("error %v carries no revert data", err)
		}
		for name, e := range tokenABI.Errors {
			if bytes.Equal(e.ID[:4], data[:4]) {
				return name
			}
		}
		t.Fatalf("unknown revert %x", data)
		return ""
	}

	// Before any root the oracle is stale: every transfer is refused.
	if err := transfer(owner, evm.Address(clear), 100); err == nil || refusal(err) != "StaleSanctionsOracle" {
		t.Fatalf("transfer before any root: %v", err)
	}
	_, pairs := fixtureLeaves(t)
	pairs = append(pairs, [2]string{"evm", lowerHex(evm.Address(bad))})
	tr, x := newTree(t, pairs), newExclusion(t, pairs)
	v := evm.NewVerifier()
	vc := v.Instance(c, verifier)
	send := func(key *ecdsa.PrivateKey, data []byte) {
		t.Helper()
		tx, err := bind.Transact(vc, bind.NewKeyedTransactor(key, id), data)
		if err != nil {
			t.Fatal(err)
		}
		mined(t, c, tx)
	}
	send(owner, v.PackSetRoots(tr.Root(), [32]byte{}, x.Root(), [32]byte{}, 1))
	// Both senders get tokens while the oracle's storage is empty.
	for _, to := range []*ecdsa.PrivateKey{bad, clear} {
		if err := transfer(owner, evm.Address(to), 100); err != nil {
			t.Fatal(err)
		}
	}
	// Anyone (here the clear sender) proves the bad sender sanctioned.
	as, p, f := addProof(t, tr, []string{lowerHex(evm.Address(bad))})
	send(clear, v.PackAddSanctioned(as, p, f))
	if err := transfer(bad, evm.Address(clear), 1); err == nil || refusal(err) != "SanctionedAccount" {
		t.Fatalf("transfer from the sanctioned sender: %v", err)
	}
	if err := transfer(clear, evm.Address(owner), 1); err != nil {
		t.Fatalf("transfer from the clear sender: %v", err)
	}
	// The clear sender is clear by proof too.
	w := views{t: t, v: v, c: vc}
	if !w.clear(x, lowerHex(evm.Address(clear))) || w.clear(x, lowerHex(evm.Address(bad))) {
		t.Fatal("exclusion proofs on ganache disagree with the oracle")
	}
	// Roots older than the maximum age: everyone is refused.
	if err := c.Client().CallContext(ctx, nil, "evm_increaseTime", maxAge+60); err != nil {
		t.Fatal(err)
	}
	if err := c.Client().CallContext(ctx, nil, "evm_mine"); err != nil {
		t.Fatal(err)
	}
	if err := transfer(clear, evm.Address(owner), 1); err == nil || refusal(err) != "StaleSanctionsOracle" {
		t.Fatalf("transfer with stale roots: %v", err)
	}
	// New roots: the clear sender may transfer again.
	send(owner, v.PackSetRoots(tr.Root(), [32]byte{}, x.Root(), [32]byte{}, 2))
	if err := transfer(clear, evm.Address(owner), 1); err != nil {
		t.Fatalf("transfer after fresh roots: %v", err)
	}
}

// mined waits for tx and fails the test unless it succeeded.
func mined(t *testing.T, c *ethclient.Client, tx *types.Transaction) {
	t.Helper()
	rcpt, err := bind.WaitMined(ctx, c, tx.Hash())
	if err != nil || rcpt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction %s: %v %+v", tx.Hash(), err, rcpt)
	}
}
