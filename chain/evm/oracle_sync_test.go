package evm_test

import (
	"iter"
	"log/slog"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/common"
)

// oracleList is chain.OracleList over a test tree and exclusion tree.
type oracleList struct {
	t       testing.TB
	v       uint64
	tr      *merkle.StandardTree
	x       *exclusion
	listed  []string // sorted EVM addresses
	isEntry map[[20]byte]bool
}

func newOracleList(t testing.TB, v uint64, pairs [][2]string) *oracleList {
	l := &oracleList{t: t, v: v, tr: newTree(t, pairs), x: newExclusion(t, pairs), listed: sortedEVM(pairs), isEntry: map[[20]byte]bool{}}
	for _, a := range l.listed {
		l.isEntry[common.HexToAddress(a)] = true
	}
	return l
}

func (l *oracleList) roots() chain.Roots {
	return chain.Roots{Sanctions: l.tr.Root(), Exclusion: l.x.Root()}
}
func (l *oracleList) Version() uint64 { return l.v }
func (l *oracleList) Sanctioned() iter.Seq[[20]byte] {
	return func(yield func([20]byte) bool) {
		for _, a := range l.listed {
			if !yield(common.HexToAddress(a)) {
				return
			}
		}
	}
}
func (l *oracleList) IsSanctioned(a [20]byte) bool { return l.isEntry[a] }
func (l *oracleList) AddProof(accounts [][20]byte) ([][20]byte, [][32]byte, []bool, error) {
	var as []string
	for _, a := range accounts {
		as = append(as, lowerHex(a))
	}
	ordered, p, f := addProof(l.t, l.tr, as)
	out := make([][20]byte, len(ordered))
	for i, a := range ordered {
		out[i] = a
	}
	return out, p, f, nil
}
func (l *oracleList) RemoveProof(a [20]byte) (low, high [20]byte, proof [][32]byte, err error) {
	g := l.x.gapOf("evm", lowerHex(a))
	lo, hi := bounds(g)
	return lo, hi, l.x.proof(l.t, "evm", g), nil
}

// oracleLists finds a test list by its roots.
type oracleLists []*oracleList

func (ls *oracleLists) OracleList(r chain.Roots) (chain.OracleList, bool) {
	for _, l := range *ls {
		if l.roots() == r {
			return l, true
		}
	}
	return nil, false
}

// oracleRecord is the oracle's store record of version v.
func (e *anchorEnv) oracleRecord(t *testing.T, v uint64) cairn.Anchor {
	t.Helper()
	rs, err := e.db.ListAnchors(ctx, evm.Target(e.chainID.Uint64(), e.contract)+"/oracle", v+1, 1)
	if err != nil || len(rs) == 0 || rs[0].ListVersion != v {
		t.Fatalf("oracle record of version %d: %v %+v", v, err, rs)
	}
	return rs[0]
}

// syncOracle runs rounds of the anchorer and the oracle, mining a block
// after each, until the oracle is synced with version v; it returns the
// transactions the updater sent meanwhile.
func (e *anchorEnv) syncOracle(t *testing.T, a *evm.Anchorer, o *evm.Oracle, v uint64) uint64 {
	t.Helper()
	before := e.nonce(t, e.updater)
	for range 200 {
		step(t, a)
		if err := o.Step(ctx); err != nil {
			t.Fatalf("oracle Step: %v", err)
		}
		st, err := o.OracleStatus(ctx)
		if err != nil {
			t.Fatal(err)
		}
		if st.Status == chain.OracleSynced && st.ListVersion == v {
			if st.Pending != 0 || st.TxHash != "" {
				t.Fatalf("synced status %+v", st)
			}
			return e.nonce(t, e.updater) - before
		}
		if st.Status == chain.OracleFailed {
			t.Fatalf("oracle failed: %+v", st)
		}
		e.sim.Commit()
	}
	st, _ := o.OracleStatus(ctx)
	t.Fatalf("oracle not synced with version %d: %+v", v, st)
	return 0
}

func (e *anchorEnv) oracle(t *testing.T, a *evm.Anchorer, lists *oracleLists, maxGas uint64) *evm.Oracle {
	t.Helper()
	o, err := evm.NewOracle(a, evm.OracleOptions{Lists: lists, MaxGas: maxGas})
	if err != nil {
		t.Fatal(err)
	}
	return o
}

// TestOracleSync: after each anchored version the oracle marks exactly
// the version's EVM addresses, in batches under the gas bound (150
// addresses under 1.2M gas: about 6 a batch, as the simulated chain's
// rules, EIP-8037, price a new storage slot at about 120k gas); a restart while a batch is in
// flight broadcasts the stored transaction again and signs no other;
// the next version removes the delisted addresses and adds the new one.
func TestOracleSync(t *testing.T) {
	e := newAnchorEnv(t)
	w := newViews(t, e.chainEnv, e.contract)
	_, pairs := fixtureLeaves(t)
	v1 := newOracleList(t, 1, pairs)
	lists := &oracleLists{v1}
	a := e.anchorer(t, e.updater, 1)
	const maxGas = 1_200_000
	o := e.oracle(t, a, lists, maxGas)

	// Nothing anchored: nothing to do.
	if err := o.Step(ctx); err != nil {
		t.Fatal(err)
	}
	if st, _ := o.OracleStatus(ctx); st.Status != chain.OracleSyncing || st.ListVersion != 0 {
		t.Fatalf("status before any anchor %+v", st)
	}
	submit(t, a, 1, v1.roots())
	e.stepMined(t, a)
	wantStatus(t, a, 1, chain.AnchorSynced)

	// The first batch is signed and broadcast; the service restarts
	// before it is mined.
	if err := o.Step(ctx); err != nil {
		t.Fatal(err)
	}
	first := e.oracleRecord(t, 1)
	if first.TxHash == "" || first.Pending != len(v1.listed) {
		t.Fatalf("first batch record %+v", first)
	}
	e.reopen(t)
	a = e.anchorer(t, e.updater, 1)
	o = e.oracle(t, a, lists, maxGas)
	sent := e.syncOracle(t, a, o, 1)
	rec := e.oracleRecord(t, 1)
	if rec.PrevTxHashes[0] != first.TxHash {
		t.Fatalf("the stored transaction %s was not the first one mined: %v", first.TxHash, rec.PrevTxHashes)
	}
	// Every batch is one transaction, mined once (the first one included:
	// it was pending at the restart), each under the gas bound.
	batches := uint64(rec.Batches)
	if sent != batches || batches < 6 || len(rec.PrevTxHashes) != rec.Batches {
		t.Fatalf("%d transactions sent after the restart, %d batches mined (%d hashes)", sent, batches, len(rec.PrevTxHashes))
	}
	for _, h := range rec.PrevTxHashes {
		rcpt, err := e.client.TransactionReceipt(ctx, common.HexToHash(h))
		if err != nil || rcpt.Status != 1 || rcpt.GasUsed > maxGas {
			t.Fatalf("batch %s: %+v %v", h, rcpt, err)
		}
	}
	unlisted := addrPlus(v1.listed[7], 1)
	checkInStep(t, w, v1.listed, []string{unlisted, lowerHex(evm.Address(e.updater))})

	// Nothing more to do: a round sends nothing.
	n := e.nonce(t, e.updater)
	if err := o.Step(ctx); err != nil || e.nonce(t, e.updater) != n {
		t.Fatalf("a synced oracle sent a transaction: %v", err)
	}

	// Version 2 delists three addresses and lists a new one.
	drop := []string{v1.listed[3], v1.listed[50], v1.listed[100]}
	var pairs2 [][2]string
	for _, p := range pairs {
		if !slices.Contains(drop, p[1]) {
			pairs2 = append(pairs2, p)
		}
	}
	pairs2 = append(pairs2, [2]string{"evm", unlisted})
	v2 := newOracleList(t, 2, pairs2)
	*lists = append(*lists, v2)
	submit(t, a, 2, v2.roots())
	if sent := e.syncOracle(t, a, o, 2); sent != 3 { // setRoots, one removal, one addition
		t.Fatalf("version 2 took %d transactions, want 3", sent)
	}
	checkInStep(t, w, v2.listed, drop)
	if r := e.oracleRecord(t, 2); r.Batches != 2 {
		t.Fatalf("version 2 record %+v", r)
	}
}

// TestOracleNewerVersion: a version synced while the oracle works on an
// older one is followed instead; the batch in flight is followed to its
// end first, and the older record is superseded.
func TestOracleNewerVersion(t *testing.T) {
	e := newAnchorEnv(t)
	w := newViews(t, e.chainEnv, e.contract)
	_, pairs := fixtureLeaves(t)
	v1 := newOracleList(t, 1, pairs)
	v2 := newOracleList(t, 2, pairs[5:])
	lists := &oracleLists{v1, v2}
	a := e.anchorerLogging(t, e.updater, 1, slog.New(slog.DiscardHandler))
	o := e.oracle(t, a, lists, 1_200_000)
	submit(t, a, 1, v1.roots())
	e.stepMined(t, a)
	if err := o.Step(ctx); err != nil { // batch 1 of version 1 in flight
		t.Fatal(err)
	}
	submit(t, a, 2, v2.roots())
	e.syncOracle(t, a, o, 2)
	if r := e.oracleRecord(t, 1); r.Status != chain.AnchorSuperseded || r.TxHash != "" {
		t.Fatalf("version 1 record %+v", r)
	}
	checkInStep(t, w, v2.listed, nil)
	for _, a := range v1.listed {
		if !slices.Contains(v2.listed, a) && w.oracle(a) {
			t.Fatalf("%s of version 1 only is still marked", a)
		}
	}
}
