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
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// anchorEnv is a deployed verifier with an updater key granted by the
// owner, an embedded store in a directory that outlives restarts, and a
// manual clock.
type anchorEnv struct {
	*chainEnv
	contract common.Address
	updater  *ecdsa.PrivateKey
	dir      string
	db       *pebble.DB
	clock    *cairn.ManualClock
	backend  *faulty
}

func newAnchorEnv(t *testing.T) *anchorEnv {
	t.Helper()
	e := &anchorEnv{chainEnv: newChain(t), updater: newKey(t), dir: t.TempDir(),
		clock: cairn.NewManualClock(time.Date(2026, 5, 1, 0, 0, 0, 0, time.UTC))}
	e.contract = e.deploy(t)
	// Fund the updater and grant it the role.
	e.fund(t, evm.Address(e.updater))
	if _, err := e.transact(t, e.contract, e.owner, evm.NewVerifier().PackSetUpdater(evm.Address(e.updater), true)); err != nil {
		t.Fatal(err)
	}
	e.backend = &faulty{Backend: e.client}
	e.reopen(t)
	return e
}

func (e *anchorEnv) fund(t *testing.T, to common.Address) {
	t.Helper()
	nonce, err := e.client.PendingNonceAt(ctx, evm.Address(e.owner))
	if err != nil {
		t.Fatal(err)
	}
	head, _ := e.client.HeaderByNumber(ctx, nil)
	tx, err := types.SignNewTx(e.owner, types.LatestSignerForChainID(e.chainID), &types.DynamicFeeTx{
		ChainID: e.chainID, Nonce: nonce, GasTipCap: big.NewInt(1e9), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(2)), big.NewInt(1e9)),
		Gas: 21000, To: &to, Value: new(big.Int).Exp(big.NewInt(10), big.NewInt(19), nil)})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.client.SendTransaction(ctx, tx); err != nil {
		t.Fatal(err)
	}
	e.sim.Commit()
}

// reopen closes and opens the store again, as a restart does.
func (e *anchorEnv) reopen(t *testing.T) {
	t.Helper()
	if e.db != nil {
		if err := e.db.Close(); err != nil {
			t.Fatal(err)
		}
	}
	db, err := pebble.Open(e.dir, pebble.Options{})
	if err != nil {
		t.Fatal(err)
	}
	e.db = db
	t.Cleanup(func() { db.Close() })
}

func (e *anchorEnv) anchorer(t *testing.T, key *ecdsa.PrivateKey, confirmations uint64) *evm.Anchorer {
	t.Helper()
	return e.anchorerLogging(t, key, confirmations, slog.New(slog.DiscardHandler))
}

func (e *anchorEnv) anchorerLogging(t *testing.T, key *ecdsa.PrivateKey, confirmations uint64, log *slog.Logger) *evm.Anchorer {
	t.Helper()
	a, err := evm.NewAnchorer(ctx, evm.Options{Backend: e.backend, Key: key, ChainID: e.chainID.Uint64(), Contract: e.contract,
		Confirmations: confirmations, Store: e.db, Clock: e.clock, Logger: log, MinBackoff: time.Second, MaxBackoff: 8 * time.Second, GapGrace: time.Minute})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func step(t *testing.T, a *evm.Anchorer) {
	t.Helper()
	if err := a.Step(ctx); err != nil {
		t.Fatalf("Step: %v", err)
	}
}

// submit submits the version's roots to a, failing the test on an error.
func submit(t *testing.T, a *evm.Anchorer, version uint64, roots chain.Roots) {
	t.Helper()
	if err := a.Submit(ctx, version, roots); err != nil {
		t.Fatal(err)
	}
}

// stepMined runs a step of a, mines a block and runs another: a
// transaction the first sends is mined and seen by the second.
func (e *anchorEnv) stepMined(t *testing.T, a *evm.Anchorer) {
	t.Helper()
	step(t, a)
	e.sim.Commit()
	step(t, a)
}

func status(t testing.TB, a *evm.Anchorer) cairn.Anchor {
	t.Helper()
	st, err := a.Status(ctx)
	if err != nil {
		t.Fatal(err)
	}
	return st
}

func wantStatus(t *testing.T, a *evm.Anchorer, version uint64, s string) cairn.Anchor {
	t.Helper()
	st := status(t, a)
	if st.Status != s || st.ListVersion != version {
		t.Fatalf("status %s of version %d (error %q), want %s of version %d", st.Status, st.ListVersion, st.Error, s, version)
	}
	return st
}

// nonce is the number of transactions key has had mined.
func (e *anchorEnv) nonce(t *testing.T, key *ecdsa.PrivateKey) uint64 {
	t.Helper()
	n, err := e.client.NonceAt(ctx, evm.Address(key), nil)
	if err != nil {
		t.Fatal(err)
	}
	return n
}

func (e *anchorEnv) onChain(t *testing.T) evm.RootsOutput {
	t.Helper()
	v := evm.NewVerifier()
	r, err := bind.Call(v.Instance(e.client, e.contract), nil, v.PackRoots(), v.UnpackRoots)
	if err != nil {
		t.Fatal(err)
	}
	return r
}

func (e *anchorEnv) records(t *testing.T) []cairn.Anchor {
	t.Helper()
	rs, err := e.db.ListAnchors(ctx, evm.Target(e.chainID.Uint64(), e.contract), 0, 100)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

var rootA, rootB, rootC = [32]byte{0xa}, [32]byte{0xb}, [32]byte{0xc}

// TestAnchorTwoVersions: two list versions of real OFAC trees are anchored
// one transaction each; every view function agrees with the roots; a
// version not newer is ignored.
func TestAnchorTwoVersions(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	if st := wantStatus(t, a, 0, chain.AnchorPending); st.ChainID() != 1337 || st.Contract() != strings.ToLower(e.contract.Hex()) {
		t.Fatalf("status before any version: %+v", st)
	}
	evmAddrs, pairs := fixtureLeaves(t)
	t1 := newTree(t, pairs)
	communityPairs := [][2]string{{"evm", "0x00000000000000000000000000000000000000c1"}}
	community, communityX := newTree(t, communityPairs), newExclusion(t, communityPairs)
	x1 := newExclusion(t, pairs)
	roots1 := chain.Roots{Sanctions: t1.Root(), Community: community.Root(), Exclusion: x1.Root(), CommunityExclusion: communityX.Root()}
	submit(t, a, 1, roots1)
	wantStatus(t, a, 1, chain.AnchorPending)
	step(t, a)
	st := wantStatus(t, a, 1, chain.AnchorSubmitted)
	if st.TxHash == "" || st.SubmittedAt.IsZero() || st.BlockNumber != 0 {
		t.Fatalf("submitted status %+v", st)
	}
	e.sim.Commit()
	step(t, a)
	st = wantStatus(t, a, 1, chain.AnchorSynced)
	if st.BlockNumber == 0 || st.SyncedAt.IsZero() || chain.RootsOf(st) != roots1 {
		t.Fatalf("synced status %+v", st)
	}
	if r := e.onChain(t); r.ListVersion != 1 || r.SanctionsRoot != t1.Root() || r.CommunityRoot != community.Root() ||
		r.ExclusionRoot != x1.Root() || r.CommunityExclusionRoot != communityX.Root() {
		t.Fatalf("contract holds %+v", r)
	}
	w := views{t: t, v: evm.NewVerifier(), c: evm.NewVerifier().Instance(e.client, e.contract)}
	listed, removed := evmAddrs[3], evmAddrs[4]
	p1 := proofOf(t, t1, "evm", listed)
	pr := proofOf(t, t1, "evm", removed)
	if !w.isSanctioned(listed, p1) || !w.isListed("evm", listed, p1) || !w.verify(p1, merkle.LeafHashStrings2("evm", listed)) || !w.isSanctioned(removed, pr) {
		t.Fatal("anchored root does not verify its proofs")
	}

	if w.clear(x1, removed) || !w.clear(x1, addrPlus(removed, 1)) {
		t.Fatal("anchored exclusion root does not verify its proofs")
	}

	// Older or equal versions are ignored, and so is a newer one with the
	// same four roots.
	for _, v := range []uint64{1, 0} {
		submit(t, a, v, chain.Roots{Sanctions: rootA, Community: rootA})
	}
	submit(t, a, 7, roots1)
	wantStatus(t, a, 1, chain.AnchorSynced)

	var pairs2 [][2]string
	for _, p := range pairs {
		if p[1] != removed {
			pairs2 = append(pairs2, p)
		}
	}
	t2, x2 := newTree(t, pairs2), newExclusion(t, pairs2)
	submit(t, a, 2, chain.Roots{Sanctions: t2.Root(), Community: community.Root(), Exclusion: x2.Root(), CommunityExclusion: communityX.Root()})
	e.stepMined(t, a)
	wantStatus(t, a, 2, chain.AnchorSynced)
	p2 := proofOf(t, t2, "evm", listed)
	if !w.isSanctioned(listed, p2) || w.isSanctioned(listed, p1) || w.isSanctioned(removed, pr) {
		t.Fatal("after version 2: the new proof must verify, the old ones not")
	}
	if !w.clear(x2, removed) || w.clear(x1, addrPlus(removed, 1)) {
		t.Fatal("after version 2: the new clear proof must verify, the old ones not")
	}
	step(t, a) // nothing left to do
	if n := e.nonce(t, e.updater); n != 2 {
		t.Fatalf("the updater sent %d transactions for two versions", n)
	}
	// Each version's own record: version 1 keeps its transaction and
	// block after version 2; 7 (ignored) and 3 (never submitted) have none.
	if old, ok, err := a.Anchor(ctx, 1); err != nil || !ok || old.ListVersion != 1 || old.TxHash != st.TxHash ||
		old.BlockNumber != st.BlockNumber || chain.RootsOf(old) != roots1 || old.Status != chain.AnchorSynced {
		t.Fatalf("Anchor(1) = %+v, %v, %v; version 1 was %+v", old, ok, err, st)
	}
	for _, v := range []uint64{0, 3, 7} {
		if got, ok, err := a.Anchor(ctx, v); err != nil || ok {
			t.Fatalf("Anchor(%d) = %+v, %v, %v: want none", v, got, ok, err)
		}
	}
}

// TestAnchorConfirmations: synced only once the block has the required
// confirmations; submitted with its block number until then.
func TestAnchorConfirmations(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 3)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	e.stepMined(t, a)
	st := wantStatus(t, a, 1, chain.AnchorSubmitted)
	if st.BlockNumber == 0 {
		t.Fatal("a mined transaction has no block number")
	}
	if a.Head() != st.BlockNumber || a.Confirmations() != 3 {
		t.Fatalf("head %d, confirmations %d; mined in block %d and waiting for 3", a.Head(), a.Confirmations(), st.BlockNumber)
	}
	e.sim.Commit()
	step(t, a)
	wantStatus(t, a, 1, chain.AnchorSubmitted)
	if a.Head() != st.BlockNumber+1 {
		t.Fatalf("head %d after one more block past %d", a.Head(), st.BlockNumber)
	}
	e.sim.Commit()
	step(t, a)
	if got := wantStatus(t, a, 1, chain.AnchorSynced); got.BlockNumber != st.BlockNumber {
		t.Fatalf("block number moved from %d to %d", st.BlockNumber, got.BlockNumber)
	}
}

// TestAnchorRestart: the service stops after storing the signed
// transaction and before the node got it; after a restart on the same store
// the very same transaction is broadcast, and no second one is signed.
func TestAnchorRestart(t *testing.T) {
	e := newAnchorEnv(t)
	e.backend.failSends = 1
	a1 := e.anchorer(t, e.updater, 1)
	submit(t, a1, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a1)
	st := wantStatus(t, a1, 1, chain.AnchorFailed)
	if st.TxHash == "" || strings.Contains(st.Error, "secret") || strings.Contains(st.Error, "http://") {
		t.Fatalf("after a failed broadcast: %+v", st)
	}
	stored := st.TxHash

	e.reopen(t) // restart: a new anchorer on the reopened store
	a2 := e.anchorer(t, e.updater, 1)
	step(t, a2) // still backing off: nothing happens
	if len(e.backend.sent) != 0 {
		t.Fatal("a transaction was sent during the backoff")
	}
	e.clock.Advance(2 * time.Second)
	step(t, a2)
	if len(e.backend.sent) != 1 || e.backend.sent[0].Hex() != stored {
		t.Fatalf("after the restart it sent %v, want the stored %s again", e.backend.sent, stored)
	}
	e.sim.Commit()
	step(t, a2)
	if st := wantStatus(t, a2, 1, chain.AnchorSynced); st.TxHash != stored {
		t.Fatalf("synced by %s, stored %s", st.TxHash, stored)
	}

	// A restart while the transaction waits in the pool sends nothing new.
	submit(t, a2, 2, chain.Roots{Sanctions: rootB, Community: rootC})
	step(t, a2)
	e.reopen(t)
	a3 := e.anchorer(t, e.updater, 1)
	e.stepMined(t, a3)
	wantStatus(t, a3, 2, chain.AnchorSynced)
	if n := e.nonce(t, e.updater); n != 2 || len(e.backend.sent) != 2 {
		t.Fatalf("%d transactions mined, %d sent, for two versions", n, len(e.backend.sent))
	}
}

// TestAnchorDropped: a transaction the node dropped is broadcast again,
// the same bytes.
func TestAnchorDropped(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	sent := status(t, a).TxHash
	e.sim.Rollback() // the pool forgets it
	if _, _, err := e.client.TransactionByHash(ctx, common.HexToHash(sent)); err == nil {
		t.Fatal("rollback did not drop the transaction")
	}
	e.stepMined(t, a)
	if st := wantStatus(t, a, 1, chain.AnchorSynced); st.TxHash != sent || e.nonce(t, e.updater) != 1 {
		t.Fatalf("synced by %s (nonce %d), want %s", st.TxHash, e.nonce(t, e.updater), sent)
	}
}

// signFrom sends a plain transfer from key at nonce with the given tip, as
// another program sharing the key would.
func (e *anchorEnv) signFrom(t *testing.T, key *ecdsa.PrivateKey, nonce uint64, tip int64) common.Hash {
	t.Helper()
	head, _ := e.client.HeaderByNumber(ctx, nil)
	to := evm.Address(key)
	tx, err := types.SignNewTx(key, types.LatestSignerForChainID(e.chainID), &types.DynamicFeeTx{
		ChainID: e.chainID, Nonce: nonce, GasTipCap: big.NewInt(tip), GasFeeCap: new(big.Int).Add(new(big.Int).Mul(head.BaseFee, big.NewInt(4)), big.NewInt(tip)),
		Gas: 21000, To: &to})
	if err != nil {
		t.Fatal(err)
	}
	if err := e.client.SendTransaction(ctx, tx); err != nil {
		t.Fatalf("send the foreign transaction: %v", err)
	}
	return tx.Hash()
}

// TestAnchorReplaced: another transaction takes the nonce of ours (a
// replacement with a higher fee); ours can never be mined, so the version
// is signed again at the next nonce, and the old hash is kept.
func TestAnchorReplaced(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	first := status(t, a).TxHash
	e.signFrom(t, e.updater, 0, 50e9) // replaces ours in the pool
	e.sim.Commit()
	step(t, a)
	if st := wantStatus(t, a, 1, chain.AnchorPending); !strings.Contains(st.Error, "replaced") {
		t.Fatalf("after the replacement: %+v", st)
	}
	e.stepMined(t, a)
	st := wantStatus(t, a, 1, chain.AnchorSynced)
	rs := e.records(t)
	if st.TxHash == first || len(rs[0].PrevTxHashes) != 1 || rs[0].PrevTxHashes[0] != first || rs[0].Nonce != 1 {
		t.Fatalf("record %+v, first tx %s", rs[0], first)
	}
	if r := e.onChain(t); r.ListVersion != 1 || r.SanctionsRoot != rootA {
		t.Fatalf("contract %+v", r)
	}
}

// TestAnchorNonceGap: our transaction waits behind a nonce nobody fills
// (another program's transaction was dropped). After GapGrace the version
// is signed at the missing nonce; the stranded one, if mined later, is
// refused by the contract.
func TestAnchorNonceGap(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	e.signFrom(t, e.updater, 0, 1e9) // pending: ours gets nonce 1
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	stranded := status(t, a).TxHash
	if rs := e.records(t); rs[0].Nonce != 1 {
		t.Fatalf("signed at nonce %d, want 1 behind the pending transaction", rs[0].Nonce)
	}
	e.sim.Rollback() // both dropped: nonce 0 is now a gap below ours
	step(t, a)       // broadcasts ours again (queued) and starts the grace
	wantStatus(t, a, 1, chain.AnchorSubmitted)
	e.clock.Advance(30 * time.Second)
	step(t, a)
	wantStatus(t, a, 1, chain.AnchorSubmitted)
	e.clock.Advance(31 * time.Second)
	step(t, a) // gap outlived the grace: drop ours
	if st := wantStatus(t, a, 1, chain.AnchorPending); !strings.Contains(st.Error, "nonce gap") {
		t.Fatalf("after the grace: %+v", st)
	}
	step(t, a) // signs at nonce 0
	if rs := e.records(t); rs[0].Nonce != 0 || rs[0].PrevTxHashes[0] != stranded {
		t.Fatalf("record %+v", rs[0])
	}
	for range 3 {
		e.sim.Commit()
	}
	step(t, a)
	wantStatus(t, a, 1, chain.AnchorSynced)
	if r := e.onChain(t); r.ListVersion != 1 || r.SanctionsRoot != rootA {
		t.Fatalf("contract %+v", r)
	}
	// The stranded transaction, mined once nonce 0 was used, reverted.
	if rcpt, err := e.client.TransactionReceipt(ctx, common.HexToHash(stranded)); err == nil && rcpt.Status != types.ReceiptStatusFailed {
		t.Fatal("the stranded transaction set the roots a second time")
	}
}

// TestAnchorChainDown: while the node is unreachable, versions pile up and
// each attempt fails with backoff, the error free of the RPC URL; once it is
// back only the newest is sent, the others superseded.
func TestAnchorChainDown(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	e.backend.setDown(true)
	for v := uint64(1); v <= 3; v++ {
		if err := a.Submit(ctx, v, chain.Roots{Sanctions: [32]byte{byte(v)}, Community: rootB}); err != nil {
			t.Fatalf("Submit while the chain is down: %v", err)
		}
	}
	submit(t, a, 4, chain.Roots{Sanctions: rootC, Community: rootB})
	step(t, a)
	st := wantStatus(t, a, 4, chain.AnchorFailed)
	if !strings.Contains(st.Error, "connection refused") || strings.Contains(st.Error, "secret") || strings.Contains(st.Error, "127.0.0.1:1/rpc") {
		t.Fatalf("error %q", st.Error)
	}
	// Backoff doubles: 1 s, 2 s, 4 s...
	rs := e.records(t)
	if rs[0].Attempts != 1 || !rs[0].NextAttempt.Equal(e.clock.Now().Add(time.Second)) {
		t.Fatalf("after one failure: attempts %d, next %v", rs[0].Attempts, rs[0].NextAttempt)
	}
	e.clock.Advance(time.Second)
	step(t, a)
	if rs := e.records(t); rs[0].Attempts != 2 || !rs[0].NextAttempt.Equal(e.clock.Now().Add(2*time.Second)) {
		t.Fatalf("after two failures: attempts %d, next %v", rs[0].Attempts, rs[0].NextAttempt)
	}
	e.backend.setDown(false)
	e.clock.Advance(2 * time.Second)
	e.stepMined(t, a)
	wantStatus(t, a, 4, chain.AnchorSynced)
	if rs := e.records(t); len(rs) != 4 {
		t.Fatalf("%d records, want 4", len(rs))
	}
	for _, r := range e.records(t)[1:] {
		if r.Status != chain.AnchorSuperseded || r.TxHash != "" {
			t.Fatalf("older version %d: %s %s", r.ListVersion, r.Status, r.TxHash)
		}
	}
	if n := e.nonce(t, e.updater); n != 1 || e.onChain(t).ListVersion != 4 {
		t.Fatalf("%d transactions for the pile of versions; contract at %d", n, e.onChain(t).ListVersion)
	}
}

// TestAnchorOlderInFlight: a new version waits for the transaction of the
// older one, then goes out at the next nonce.
func TestAnchorOlderInFlight(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	submit(t, a, 2, chain.Roots{Sanctions: rootC, Community: rootB})
	step(t, a)
	if p, _ := e.client.PendingNonceAt(ctx, evm.Address(e.updater)); p != 1 {
		t.Fatalf("pending nonce %d: the new version went out while the old one was in flight", p)
	}
	wantStatus(t, a, 2, chain.AnchorPending)
	// The node goes away for a round: the newest version shows the older
	// transaction's failure.
	e.backend.setDown(true)
	step(t, a)
	e.backend.setDown(false)
	if st := wantStatus(t, a, 2, chain.AnchorFailed); !strings.Contains(st.Error, "of list version 1") || !strings.Contains(st.Error, "connection refused") {
		t.Fatalf("status while the older transaction fails: %+v", st)
	}
	e.clock.Advance(time.Second)
	e.sim.Commit()
	e.stepMined(t, a)
	wantStatus(t, a, 2, chain.AnchorSynced)
	if rs := e.records(t); rs[1].Status != chain.AnchorSuperseded || rs[1].BlockNumber == 0 {
		t.Fatalf("older version: %+v", rs[1])
	}
	if r := e.onChain(t); r.ListVersion != 2 || r.SanctionsRoot != rootC {
		t.Fatalf("contract %+v", r)
	}
}

// TestAnchorUnauthorized: a key that is neither owner nor updater fails
// with the decoded custom error and sends nothing.
func TestAnchorUnauthorized(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.stranger, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	st := wantStatus(t, a, 1, chain.AnchorFailed)
	if !strings.Contains(st.Error, "Unauthorized("+evm.Address(e.stranger).Hex()+")") || st.TxHash != "" {
		t.Fatalf("status %+v", st)
	}
	if n := e.nonce(t, e.stranger); n != 0 || len(e.backend.sent) != 0 {
		t.Fatalf("a refused key sent %d transactions", n)
	}
}

// TestAnchorExclusionRootsOnly: a version whose membership roots equal the
// anchored ones but whose exclusion roots differ is anchored (the four go
// together); a record without exclusion roots (written before they were
// anchored) reads as zero ones.
func TestAnchorExclusionRootsOnly(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	e.stepMined(t, a)
	wantStatus(t, a, 1, chain.AnchorSynced)
	// A record from before: no exclusion roots; the same roots again
	// are not sent.
	target := evm.Target(e.chainID.Uint64(), e.contract)
	if _, err := e.db.UpdateAnchor(ctx, target, 1, func(x *cairn.Anchor) error {
		x.ExclusionRoot, x.CommunityExclusionRoot = "", ""
		return nil
	}); err != nil {
		t.Fatal(err)
	}
	if st := status(t, a); chain.RootsOf(st) != (chain.Roots{Sanctions: rootA, Community: rootB}) {
		t.Fatalf("roots of a record without exclusion roots: %+v", chain.RootsOf(st))
	}
	submit(t, a, 2, chain.Roots{Sanctions: rootA, Community: rootB})
	wantStatus(t, a, 1, chain.AnchorSynced)
	roots := chain.Roots{Sanctions: rootA, Community: rootB, Exclusion: rootC, CommunityExclusion: rootA}
	submit(t, a, 3, roots)
	e.stepMined(t, a)
	if st := wantStatus(t, a, 3, chain.AnchorSynced); chain.RootsOf(st) != roots {
		t.Fatalf("status roots %+v", chain.RootsOf(st))
	}
	if r := e.onChain(t); r.ListVersion != 3 || r.ExclusionRoot != rootC || r.CommunityExclusionRoot != rootA || r.SanctionsRoot != rootA {
		t.Fatalf("contract holds %+v", r)
	}
}
