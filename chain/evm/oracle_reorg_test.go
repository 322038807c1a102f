package evm_test

import (
	"math/big"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum/common"
)

// syncAnchor runs rounds of a, mining a block after each, until version v
// is synced.
func (e *anchorEnv) syncAnchor(t *testing.T, a *evm.Anchorer, v uint64) {
	t.Helper()
	for range 10 {
		step(t, a)
		if st := status(t, a); st.Status == chain.AnchorSynced && st.ListVersion == v {
			return
		}
		e.sim.Commit()
	}
	wantStatus(t, a, v, chain.AnchorSynced)
}

// TestOracleConfirmedReads: with two confirmations the oracle acts on
// confirmed blocks only. Its batch, mined in the head block, is followed
// until that block is confirmed, not counted done; a reorg then replaces
// the block (the node drops the transaction): the oracle broadcasts the
// same batch again and reports the storage in step only once the chain
// marks every listed address. Reading the head's events, it would have
// counted the batch, reported synced, and never marked them again.
func TestOracleConfirmedReads(t *testing.T) {
	e := newAnchorEnv(t)
	w := newViews(t, e.chainEnv, e.contract)
	_, pairs := fixtureLeaves(t)
	v1 := newOracleList(t, 1, pairs[:12])
	if len(v1.listed) < 2 {
		t.Fatalf("the test list has %d EVM addresses", len(v1.listed))
	}
	a := e.anchorer(t, e.updater, 2)
	o := e.oracle(t, a, &oracleLists{v1}, 0)
	submit(t, a, 1, v1.roots())
	e.syncAnchor(t, a, 1)

	if err := o.Step(ctx); err != nil { // the only batch: every address
		t.Fatal(err)
	}
	batch := e.oracleRecord(t, 1)
	if batch.TxHash == "" || batch.Pending != len(v1.listed) {
		t.Fatalf("batch record %+v", batch)
	}
	e.sim.Commit()
	rcpt, err := e.client.TransactionReceipt(ctx, common.HexToHash(batch.TxHash))
	if err != nil || rcpt.Status != 1 {
		t.Fatalf("batch receipt %+v %v", rcpt, err)
	}
	checkInStep(t, w, v1.listed, nil)
	// Mined with one confirmation of two: still the batch in flight.
	if err := o.Step(ctx); err != nil {
		t.Fatal(err)
	}
	if r := e.oracleRecord(t, 1); r.Status != chain.OracleSyncing || r.TxHash != batch.TxHash || r.Batches != 0 {
		t.Fatalf("with one confirmation of two the record is %+v", r)
	}

	// A reorg replaces the batch's block; the node forgets the
	// transaction.
	parent, err := e.client.HeaderByNumber(ctx, new(big.Int).Sub(rcpt.BlockNumber, big.NewInt(1)))
	if err != nil {
		t.Fatal(err)
	}
	if err := e.sim.Fork(parent.Hash()); err != nil {
		t.Fatal(err)
	}
	e.sim.Rollback()
	e.sim.Commit()
	e.sim.Commit()
	if _, err := e.client.TransactionReceipt(ctx, rcpt.TxHash); err == nil {
		t.Fatal("the reorg kept the batch")
	}
	if w.oracle(v1.listed[0]) {
		t.Fatal("the reorg kept the marks")
	}

	e.syncOracle(t, a, o, 1)
	checkInStep(t, w, v1.listed, []string{lowerHex(evm.Address(e.updater))})
	if r := e.oracleRecord(t, 1); r.Batches != 1 || len(r.PrevTxHashes) != 1 || r.PrevTxHashes[0] != batch.TxHash {
		t.Fatalf("record %+v: want the same batch, mined once", r)
	}
}

// TestOracleFromBlockAhead: a first block past the newest confirmed one
// (a mistyped --evm-oracle-from-block) would miss every event before it:
// the oracle fails, saying so, and sends nothing.
func TestOracleFromBlockAhead(t *testing.T) {
	e := newAnchorEnv(t)
	_, pairs := fixtureLeaves(t)
	v1 := newOracleList(t, 1, pairs[:12])
	a := e.anchorer(t, e.updater, 2)
	o, err := evm.NewOracle(a, evm.OracleOptions{Lists: &oracleLists{v1}, FromBlock: 1_000_000})
	if err != nil {
		t.Fatal(err)
	}
	submit(t, a, 1, v1.roots())
	e.syncAnchor(t, a, 1)
	n := e.nonce(t, e.updater)
	if err := o.Step(ctx); err != nil {
		t.Fatal(err)
	}
	st, err := o.OracleStatus(ctx)
	if err != nil || st.Status != chain.OracleFailed || !strings.Contains(st.Error, "first block 1000000 is past the newest confirmed block") {
		t.Fatalf("status %+v, %v", st, err)
	}
	if pending, err := e.client.PendingNonceAt(ctx, evm.Address(e.updater)); err != nil || pending != n {
		t.Fatalf("the oracle sent a transaction: pending nonce %d, mined %d (%v)", pending, n, err)
	}
}

// TestOracleDefaultGasBound: with no gas bound given, batches fit the gas
// a transaction may use since Osaka (2^24, EIP-7825), under half of the
// simulated chain's block gas limit: the first guess of the gas per
// address (60k) is under what the simulated chain charges (about 120k), so
// the first batch asked is more than a node will estimate, and is halved
// until it fits instead of failing every round.
func TestOracleDefaultGasBound(t *testing.T) {
	e := newAnchorEnv(t)
	w := newViews(t, e.chainEnv, e.contract)
	_, pairs := fixtureLeaves(t)
	v1 := newOracleList(t, 1, pairs)
	a := e.anchorer(t, e.updater, 1)
	o := e.oracle(t, a, &oracleLists{v1}, 0)
	submit(t, a, 1, v1.roots())
	e.syncOracle(t, a, o, 1)
	checkInStep(t, w, v1.listed, nil)
	for _, h := range e.oracleRecord(t, 1).PrevTxHashes {
		if rcpt, err := e.client.TransactionReceipt(ctx, common.HexToHash(h)); err != nil || rcpt.GasUsed > 1<<24 {
			t.Fatalf("batch %s: %+v %v", h, rcpt, err)
		}
	}
}
