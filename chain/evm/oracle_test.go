package evm_test

import (
	"crypto/ecdsa"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// addProof is addSanctioned's arguments for accounts of tr: the
// multiproof of their membership leaves, the accounts in its leaf order.
func addProof(t testing.TB, tr *merkle.StandardTree, accounts []string) ([]common.Address, [][32]byte, []bool) {
	t.Helper()
	idx := make([]int, len(accounts))
	for i, a := range accounts {
		var err error
		if idx[i], err = tr.LeafLookup([]any{"evm", a}); err != nil {
			t.Fatalf("%s: %v", a, err)
		}
	}
	mp, err := tr.MultiProof(idx)
	if err != nil {
		t.Fatal(err)
	}
	ordered := make([]common.Address, len(mp.Indices))
	for k, i := range mp.Indices {
		ordered[k] = common.HexToAddress(tr.Value(i)[1].(string))
	}
	return ordered, hashes(mp.Proof), mp.ProofFlags
}

// removeProof is removeSanctioned's arguments for accounts clear in x.
func removeProof(t testing.TB, x *exclusion, accounts []string) ([]common.Address, []common.Address, []common.Address, [][][32]byte) {
	t.Helper()
	var as, lows, highs []common.Address
	var proofs [][][32]byte
	for _, a := range accounts {
		g := x.gapOf("evm", a)
		lo, hi := bounds(g)
		as, lows, highs = append(as, common.HexToAddress(a)), append(lows, lo), append(highs, hi)
		proofs = append(proofs, x.proof(t, "evm", g))
	}
	return as, lows, highs, proofs
}

// oracleTx sends an oracle update from key and returns its receipt, or the
// decoded custom error of its revert.
func (e *chainEnv) oracleTx(t testing.TB, addr common.Address, key *ecdsa.PrivateKey, data []byte) (*types.Receipt, any) {
	t.Helper()
	rcpt, err := e.transact(t, addr, key, data)
	if err != nil {
		return nil, revertError(t, err)
	}
	if rcpt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("transaction reverted without an estimate error: %+v", rcpt)
	}
	return rcpt, nil
}

// TestContractOracle: the Chainalysis interface answered from storage that
// anyone keeps in step with the anchored trees, only by proofs.
func TestContractOracle(t *testing.T) {
	e, addr, w := deployedViews(t)
	v := evm.NewVerifier()
	_, pairs := fixtureLeaves(t)
	listed := sortedEVM(pairs)
	unlisted := addrPlus(listed[3], 1)
	t1, x1 := newTree(t, pairs), newExclusion(t, pairs)

	if got := call(t, w.c, v.PackName(), v.UnpackName); got != "cairn sanctions oracle" {
		t.Fatalf("name() = %q", got)
	}
	// No root: nothing can be added.
	as, p, f := addProof(t, t1, listed[:2])
	if _, rev := e.oracleTx(t, addr, e.stranger, v.PackAddSanctioned(as, p, f)); rev == nil {
		t.Fatal("added before any root")
	} else if _, ok := rev.(*evm.VerifierNoRoot); !ok {
		t.Fatalf("revert %T, want NoRoot", rev)
	}
	e.setRoots(t, addr, t1.Root(), [32]byte{}, x1.Root(), [32]byte{}, 1)

	t.Run("Add", func(t *testing.T) {
		// A stranger adds ten listed accounts with one multiproof.
		batch := []string{listed[0], listed[5], listed[9], listed[40], listed[41], listed[42], listed[60], listed[77], listed[100], listed[len(listed)-1]}
		as, p, f := addProof(t, t1, batch)
		rcpt, rev := e.oracleTx(t, addr, e.stranger, v.PackAddSanctioned(as, p, f))
		if rev != nil {
			t.Fatalf("addSanctioned reverted: %#v", rev)
		}
		ev, err := v.UnpackSanctionedAddressesAddedEvent(rcpt.Logs[0])
		if err != nil || len(rcpt.Logs) != 1 || !slices.Equal(ev.Addrs, as) {
			t.Fatalf("event %+v %v, want the %d accounts", ev, err, len(as))
		}
		for _, a := range batch {
			if !w.oracle(a) {
				t.Errorf("%s not sanctioned after addSanctioned", a)
			}
		}
		if w.oracle(listed[1]) || w.oracle(unlisted) {
			t.Fatal("an account not added is sanctioned")
		}
		// Adding again, with a new one, is harmless: the event names the
		// new one only; all known already: no event.
		as, p, f = addProof(t, t1, []string{listed[0], listed[1]})
		rcpt, rev = e.oracleTx(t, addr, e.stranger, v.PackAddSanctioned(as, p, f))
		if rev != nil {
			t.Fatalf("re-adding reverted: %#v", rev)
		}
		if ev, err := v.UnpackSanctionedAddressesAddedEvent(rcpt.Logs[0]); err != nil || !slices.Equal(ev.Addrs, []common.Address{common.HexToAddress(listed[1])}) {
			t.Fatalf("re-add event %+v %v", ev, err)
		}
		if rcpt, rev = e.oracleTx(t, addr, e.stranger, v.PackAddSanctioned(as, p, f)); rev != nil || len(rcpt.Logs) != 0 {
			t.Fatalf("re-adding known accounts: %#v, %d logs", rev, len(rcpt.Logs))
		}
	})
	t.Run("ErrAdd", func(t *testing.T) {
		as, p, f := addProof(t, t1, []string{listed[2], listed[3], listed[4]})
		// An unlisted account in place of a listed one, the owner's
		// account, the order changed, a proof hash changed: refused for
		// the owner as for anyone.
		swapped := slices.Clone(as)
		swapped[1] = common.HexToAddress(unlisted)
		owned := slices.Clone(as)
		owned[0] = evm.Address(e.owner)
		reordered := []common.Address{as[1], as[0], as[2]}
		badProof := slices.Clone(p)
		badProof[0][0] ^= 1
		for name, data := range map[string][]byte{
			"unlisted":  v.PackAddSanctioned(swapped, p, f),
			"owner":     v.PackAddSanctioned(owned, p, f),
			"reordered": v.PackAddSanctioned(reordered, p, f),
			"proof":     v.PackAddSanctioned(as, badProof, f),
			"lengths":   v.PackAddSanctioned(as, p, f[1:]),
			"single":    v.PackAddSanctioned([]common.Address{evm.Address(e.owner)}, proofOf(t, t1, "evm", listed[2]), nil),
		} {
			for _, key := range []*ecdsa.PrivateKey{e.owner, e.stranger} {
				_, rev := e.oracleTx(t, addr, key, data)
				if _, ok := rev.(*evm.VerifierInvalidMembershipProof); !ok {
					t.Errorf("%s: revert %#v, want InvalidMembershipProof", name, rev)
				}
			}
		}
		for _, a := range []string{unlisted, listed[2], listed[3], listed[4], lowerHex(evm.Address(e.owner))} {
			if w.oracle(a) {
				t.Fatalf("%s sanctioned after refused adds", a)
			}
		}
	})
	t.Run("InStep", func(t *testing.T) {
		// Everyone listed, in batches of 50.
		for i := 0; i < len(listed); i += 50 {
			as, p, f := addProof(t, t1, listed[i:min(i+50, len(listed))])
			if _, rev := e.oracleTx(t, addr, e.stranger, v.PackAddSanctioned(as, p, f)); rev != nil {
				t.Fatalf("batch %d: %#v", i, rev)
			}
		}
		checkInStep(t, w, listed, []string{unlisted, zeroHex, maxHex, lowerHex(evm.Address(e.owner))})
	})
	t.Run("Remove", func(t *testing.T) {
		// Version 2 drops three accounts: their exclusion proofs of the
		// new tree remove them; still-listed accounts cannot be removed.
		drop := []string{listed[5], listed[6], listed[90]}
		var pairs2 [][2]string
		for _, p := range pairs {
			if !slices.Contains(drop, p[1]) {
				pairs2 = append(pairs2, p)
			}
		}
		t2, x2 := newTree(t, pairs2), newExclusion(t, pairs2)
		// Before the update the version-1 tree proves none of them clear.
		_, rev := e.oracleTx(t, addr, e.stranger, v.PackRemoveSanctioned(removeProof(t, x1, drop)))
		if ie, ok := rev.(*evm.VerifierInvalidExclusionProof); !ok || ie.Account != common.HexToAddress(drop[0]) {
			t.Fatalf("removing a listed account: %#v, want InvalidExclusionProof(%s)", rev, drop[0])
		}
		e.setRoots(t, addr, t2.Root(), [32]byte{}, x2.Root(), [32]byte{}, 2)
		as, lows, highs, proofs := removeProof(t, x2, drop)
		rcpt, rev := e.oracleTx(t, addr, e.stranger, v.PackRemoveSanctioned(as, lows, highs, proofs))
		if rev != nil {
			t.Fatalf("removeSanctioned: %#v", rev)
		}
		if ev, err := v.UnpackSanctionedAddressesRemovedEvent(rcpt.Logs[0]); err != nil || !slices.Equal(ev.Addrs, as) {
			t.Fatalf("removed event %+v %v", ev, err)
		}
		// Removing again is harmless and silent.
		if rcpt, rev := e.oracleTx(t, addr, e.stranger, v.PackRemoveSanctioned(as, lows, highs, proofs)); rev != nil || len(rcpt.Logs) != 0 {
			t.Fatalf("removing again: %#v", rev)
		}
		var still []string
		for _, a := range listed {
			if !slices.Contains(drop, a) {
				still = append(still, a)
			}
		}
		checkInStep(t, w, still, append(drop, unlisted))
		// A still-listed account, with a neighbouring gap's proof, or an
		// exclusion proof of the old tree: refused, by the owner too.
		g := x2.gapOf("evm", still[10])
		lo, hi := bounds(g)
		one := func(a string, lo, hi common.Address, p [][32]byte) []byte {
			return v.PackRemoveSanctioned([]common.Address{common.HexToAddress(a)}, []common.Address{lo}, []common.Address{hi}, [][][32]byte{p})
		}
		for _, data := range [][]byte{
			one(still[10], lo, hi, x2.proof(t, "evm", g)),
			one(still[10], common.Address{}, maxAddr, x2.proof(t, "evm", x2.gaps["evm"][0])),
		} {
			_, rev := e.oracleTx(t, addr, e.owner, data)
			if _, ok := rev.(*evm.VerifierInvalidExclusionProof); !ok {
				t.Fatalf("removing a listed account: %#v", rev)
			}
		}
		// Re-adding a dropped account with its version-1 proof: refused.
		as1, p1, f1 := addProof(t, t1, drop[:1])
		if _, rev := e.oracleTx(t, addr, e.owner, v.PackAddSanctioned(as1, p1, f1)); rev == nil {
			t.Fatal("a stale membership proof added an account")
		}
		_, rev = e.oracleTx(t, addr, e.stranger, v.PackRemoveSanctioned(as, lows[1:], highs, proofs))
		if _, ok := rev.(*evm.VerifierLengthMismatch); !ok {
			t.Fatalf("mismatched lengths: %#v", rev)
		}
		checkInStep(t, w, still, drop)
	})
	t.Run("Verbose", func(t *testing.T) {
		for a, want := range map[string]bool{listed[0]: true, unlisted: false} {
			rcpt, rev := e.oracleTx(t, addr, e.stranger, v.PackIsSanctionedVerbose(common.HexToAddress(a)))
			if rev != nil || len(rcpt.Logs) != 1 {
				t.Fatalf("isSanctionedVerbose(%s): %#v", a, rev)
			}
			if want {
				ev, err := v.UnpackSanctionedAddressEvent(rcpt.Logs[0])
				if err != nil || ev.Addr != common.HexToAddress(a) {
					t.Fatalf("SanctionedAddress %+v %v", ev, err)
				}
			} else if ev, err := v.UnpackNonSanctionedAddressEvent(rcpt.Logs[0]); err != nil || ev.Addr != common.HexToAddress(a) {
				t.Fatalf("NonSanctionedAddress %+v %v", ev, err)
			}
		}
	})
}

// checkInStep: isSanctioned(address) is true for every listed account and
// false for the others.
func checkInStep(t *testing.T, w views, listed, others []string) {
	t.Helper()
	for _, a := range listed {
		if !w.oracle(a) {
			t.Fatalf("listed %s not sanctioned", a)
		}
	}
	for _, a := range others {
		if w.oracle(a) {
			t.Fatalf("%s sanctioned, not listed", a)
		}
	}
}

// TestContractForceSetRoots: an updater key that set list version 2^64-1
// bricks setRoots; the owner revokes it and sets the true roots at a
// lower version with forceSetRoots, which no one else may call.
func TestContractForceSetRoots(t *testing.T) {
	e, addr, w := deployedViews(t)
	v := evm.NewVerifier()
	rootA, rootB, rootC, rootD := [32]byte{0xa}, [32]byte{0xb}, [32]byte{0xc}, [32]byte{0xd}
	e.setRoots(t, addr, rootA, rootB, rootC, rootD, 3)
	if _, rev := e.oracleTx(t, addr, e.owner, v.PackSetUpdater(evm.Address(e.stranger), true)); rev != nil {
		t.Fatal(rev)
	}
	const maxVersion = ^uint64(0)
	if _, rev := e.oracleTx(t, addr, e.stranger, v.PackSetRoots(rootD, rootD, rootD, rootD, maxVersion)); rev != nil {
		t.Fatalf("compromised updater: %#v", rev)
	}
	_, rev := e.oracleTx(t, addr, e.owner, v.PackSetRoots(rootA, rootB, rootC, rootD, 4))
	if se, ok := rev.(*evm.VerifierStaleListVersion); !ok || se.Current != maxVersion {
		t.Fatalf("setRoots after version 2^64-1: %#v", rev)
	}
	// The updater cannot force.
	if _, rev := e.oracleTx(t, addr, e.stranger, v.PackForceSetRoots(rootA, rootB, rootC, rootD, 4)); rev == nil {
		t.Fatal("an updater forced the roots")
	} else if _, ok := rev.(*evm.VerifierUnauthorized); !ok {
		t.Fatalf("revert %#v, want Unauthorized", rev)
	}
	if _, rev := e.oracleTx(t, addr, e.owner, v.PackSetUpdater(evm.Address(e.stranger), false)); rev != nil {
		t.Fatal(rev)
	}
	rcpt, rev := e.oracleTx(t, addr, e.owner, v.PackForceSetRoots(rootA, rootB, rootC, rootD, 4))
	if rev != nil || len(rcpt.Logs) != 2 {
		t.Fatalf("forceSetRoots: %#v", rev)
	}
	forced, err := v.UnpackRootsForcedEvent(rcpt.Logs[0])
	if err != nil || forced.ListVersion != 4 || forced.PreviousListVersion != maxVersion || forced.Owner != evm.Address(e.owner) {
		t.Fatalf("RootsForced %+v %v", forced, err)
	}
	up, err := v.UnpackRootsUpdatedEvent(rcpt.Logs[1])
	if err != nil || up.ListVersion != 4 || up.SanctionsRoot != rootA || up.CommunityRoot != rootB || up.ExclusionRoot != rootC ||
		up.CommunityExclusionRoot != rootD {
		t.Fatalf("RootsUpdated %+v %v", up, err)
	}
	if r := w.roots(); r.ListVersion != 4 || r.SanctionsRoot != rootA || r.CommunityRoot != rootB || r.ExclusionRoot != rootC || r.CommunityExclusionRoot != rootD {
		t.Fatalf("roots() = %+v", r)
	}
	// Back to normal: the next version goes through setRoots.
	e.setRoots(t, addr, rootB, rootB, rootB, rootB, 5)
	if _, rev := e.oracleTx(t, addr, e.stranger, v.PackSetRoots(rootD, rootD, rootD, rootD, 6)); rev == nil {
		t.Fatal("the revoked updater set roots")
	}
}
