package evm_test

import (
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// views calls the verifier's view functions at the latest block.
type views struct {
	t *testing.T
	v *evm.Verifier
	c *bind.BoundContract
}

// deployedViews is a simulated chain with the verifier deployed on it,
// the contract's address and its view functions.
func deployedViews(t *testing.T) (*chainEnv, common.Address, views) {
	e := newChain(t)
	addr := e.deploy(t)
	return e, addr, newViews(t, e, addr)
}

func newViews(t *testing.T, e *chainEnv, addr common.Address) views {
	v := evm.NewVerifier()
	return views{t: t, v: v, c: v.Instance(e.client, addr)}
}

func (w views) bool(data []byte, unpack func([]byte) (bool, error)) bool {
	w.t.Helper()
	ok, err := bind.Call(w.c, nil, data, unpack)
	if err != nil {
		w.t.Fatal(err)
	}
	return ok
}

func (w views) verify(p [][32]byte, leaf [32]byte) bool {
	return w.bool(w.v.PackVerify(p, leaf), w.v.UnpackVerify)
}
func (w views) isListed(fam, addr string, p [][32]byte) bool {
	return w.bool(w.v.PackIsListed(fam, addr, p), w.v.UnpackIsListed)
}
func (w views) isSanctioned(addr string, p [][32]byte) bool {
	return w.bool(w.v.PackIsSanctioned(common.HexToAddress(addr), p), w.v.UnpackIsSanctioned)
}
func (w views) isCommunityListed(fam, addr string, p [][32]byte) bool {
	return w.bool(w.v.PackIsCommunityListed(fam, addr, p), w.v.UnpackIsCommunityListed)
}
func (w views) multi(mp merkle.MultiProof) bool {
	return w.bool(w.v.PackMultiProofVerify(hashes(mp.Proof), mp.ProofFlags, hashes(mp.Leaves)), w.v.UnpackMultiProofVerify)
}

func (w views) roots() evm.RootsOutput {
	w.t.Helper()
	r, err := bind.Call(w.c, nil, w.v.PackRoots(), w.v.UnpackRoots)
	if err != nil {
		w.t.Fatal(err)
	}
	return r
}

// TestVerifierContract: every view function against real OFAC addresses,
// across two list versions; the owner-only update with its custom errors;
// the updater role.
func TestVerifierContract(t *testing.T) {
	e, addr, w := deployedViews(t)
	v := evm.NewVerifier()
	evmAddrs, pairs := fixtureLeaves(t)
	listed, removed, unlisted := evmAddrs[0], evmAddrs[1], "0x000000000000000000000000000000000000dead"
	btc := pairs[len(pairs)-1]

	// Before any root: nothing verifies, not even the empty proof of the
	// zero leaf against the zero root.
	if w.verify(nil, [32]byte{}) || w.isSanctioned(listed, nil) {
		t.Fatal("a proof verified before any root was set")
	}

	t1 := newTree(t, pairs)
	community := newTree(t, [][2]string{{"evm", unlisted}, {"evm", "0x00000000000000000000000000000000000000c1"}})
	excl, commExcl := [32]byte{0xe1}, [32]byte{0xe2}
	rcpt, err := e.transact(t, addr, e.owner, v.PackSetRoots(t1.Root(), community.Root(), excl, commExcl, 1))
	if err != nil || rcpt.Status != types.ReceiptStatusSuccessful {
		t.Fatalf("owner setRoot: %v %+v", err, rcpt)
	}
	if len(rcpt.Logs) != 1 {
		t.Fatalf("setRoot emitted %d logs, want 1", len(rcpt.Logs))
	}
	ev, err := v.UnpackRootsUpdatedEvent(rcpt.Logs[0])
	if err != nil || ev.ListVersion != 1 || ev.SanctionsRoot != t1.Root() || ev.CommunityRoot != community.Root() ||
		ev.ExclusionRoot != excl || ev.CommunityExclusionRoot != commExcl || ev.Updater != evm.Address(e.owner) || ev.UpdatedAt == 0 {
		t.Fatalf("RootsUpdated %+v %v", ev, err)
	}
	if r := w.roots(); r.SanctionsRoot != t1.Root() || r.CommunityRoot != community.Root() || r.ExclusionRoot != excl ||
		r.CommunityExclusionRoot != commExcl || r.ListVersion != 1 || r.UpdatedAt != ev.UpdatedAt {
		t.Fatalf("roots() = %+v", r)
	}
	if got, err := bind.Call(w.c, nil, v.PackRoot(), v.UnpackRoot); err != nil || got != t1.Root() {
		t.Fatalf("root() = %x %v", got, err)
	}
	if got, err := bind.Call(w.c, nil, v.PackListVersion(), v.UnpackListVersion); err != nil || got != 1 {
		t.Fatalf("listVersion() = %d %v", got, err)
	}

	// Listed: every view says true.
	p := proofOf(t, t1, "evm", listed)
	leaf := merkle.LeafHashStrings2("evm", listed)
	if !w.verify(p, leaf) || !w.isListed("evm", listed, p) || !w.isSanctioned(listed, p) {
		t.Fatalf("%s with its proof did not verify", listed)
	}
	if onChain, err := bind.Call(w.c, nil, v.PackLeafOf("evm", listed), v.UnpackLeafOf); err != nil || onChain != leaf {
		t.Fatalf("leafOf = %x, merkle computes %x (%v)", onChain, leaf, err)
	}
	bp := proofOf(t, t1, btc[0], btc[1])
	if !w.isListed(btc[0], btc[1], bp) || !w.verify(bp, merkle.LeafHashStrings2(btc[0], btc[1])) {
		t.Fatalf("bitcoin %s did not verify", btc[1])
	}
	// Wrong family, another address's proof, an unlisted address, the
	// community tree: false.
	if w.isListed("bitcoin", listed, p) || w.isListed("evm", removed, p) || w.isSanctioned(unlisted, p) ||
		w.isSanctioned(unlisted, nil) || w.verify(p, merkle.LeafHashStrings2("evm", unlisted)) {
		t.Fatal("a proof verified for the wrong leaf")
	}
	if w.isCommunityListed("evm", listed, p) {
		t.Fatal("a sanctions proof verified against the community root")
	}
	cp, err := community.ProofOf([]any{"evm", unlisted})
	if err != nil {
		t.Fatal(err)
	}
	if !w.isCommunityListed("evm", unlisted, hashes(cp)) || w.isListed("evm", unlisted, hashes(cp)) {
		t.Fatal("the community proof must verify against the community root only")
	}
	// A multiproof of three listed addresses.
	var idx []int
	for _, a := range []string{evmAddrs[2], evmAddrs[5], btc[1]} {
		fam := "evm"
		if a == btc[1] {
			fam = btc[0]
		}
		i, err := t1.LeafLookup([]any{fam, a})
		if err != nil {
			t.Fatal(err)
		}
		idx = append(idx, i)
	}
	mp, err := t1.MultiProof(idx)
	if err != nil {
		t.Fatal(err)
	}
	if !w.multi(mp) {
		t.Fatal("multiproof did not verify")
	}
	bad := mp
	bad.Leaves = append([]merkle.Hash{merkle.LeafHashStrings2("evm", unlisted)}, mp.Leaves[1:]...)
	if w.multi(bad) {
		t.Fatal("a multiproof with an unlisted leaf verified")
	}
	short := mp
	short.ProofFlags = mp.ProofFlags[1:]
	if w.multi(short) {
		t.Fatal("a multiproof whose lengths do not fit verified")
	}

	// Version 2 drops `removed`: its old proof no longer verifies; the
	// proof of `listed` from the new tree does, the old one does not.
	var pairs2 [][2]string
	for _, pr := range pairs {
		if pr[1] != removed {
			pairs2 = append(pairs2, pr)
		}
	}
	t2 := newTree(t, pairs2)
	oldRemoved := proofOf(t, t1, "evm", removed)
	if !w.isSanctioned(removed, oldRemoved) {
		t.Fatal("removed address did not verify under version 1")
	}
	if _, err := e.transact(t, addr, e.owner, v.PackSetRoots(t2.Root(), community.Root(), [32]byte{}, [32]byte{}, 2)); err != nil {
		t.Fatal(err)
	}
	if w.isSanctioned(removed, oldRemoved) || w.isListed("evm", removed, oldRemoved) ||
		w.verify(oldRemoved, merkle.LeafHashStrings2("evm", removed)) {
		t.Fatal("the proof of a delisted address verified after the update")
	}
	if w.isSanctioned(listed, p) {
		t.Fatal("a proof for the old root verified after the update")
	}
	p2 := proofOf(t, t2, "evm", listed)
	if !w.isSanctioned(listed, p2) || !w.isListed("evm", listed, p2) {
		t.Fatal("the new proof did not verify")
	}

	t.Run("ErrUnauthorized", func(t *testing.T) {
		_, err := e.transact(t, addr, e.stranger, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 3))
		ue, ok := revertError(t, err).(*evm.VerifierUnauthorized)
		if !ok || ue.Caller != evm.Address(e.stranger) {
			t.Fatalf("revert %v, want Unauthorized(%s)", err, evm.Address(e.stranger))
		}
		for _, data := range [][]byte{v.PackSetUpdater(evm.Address(e.stranger), true), v.PackTransferOwnership(evm.Address(e.stranger))} {
			if _, err := e.transact(t, addr, e.stranger, data); err == nil {
				t.Fatal("a stranger changed the roles")
			} else if _, ok := revertError(t, err).(*evm.VerifierUnauthorized); !ok {
				t.Fatalf("revert %v, want Unauthorized", err)
			}
		}
		if w.roots().ListVersion != 2 {
			t.Fatal("a refused update changed the roots")
		}
	})
	t.Run("ErrStaleListVersion", func(t *testing.T) {
		for _, lv := range []uint64{2, 1} {
			_, err := e.transact(t, addr, e.owner, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, lv))
			se, ok := revertError(t, err).(*evm.VerifierStaleListVersion)
			if !ok || se.ListVersion != lv || se.Current != 2 {
				t.Fatalf("revert %v, want StaleListVersion(%d, 2)", err, lv)
			}
		}
	})
	t.Run("Updater", func(t *testing.T) {
		if _, err := e.transact(t, addr, e.owner, v.PackSetUpdater(evm.Address(e.stranger), true)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.transact(t, addr, e.stranger, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 3)); err != nil {
			t.Fatalf("granted updater: %v", err)
		}
		if w.roots().ListVersion != 3 {
			t.Fatal("the updater's setRoot did not apply")
		}
		if _, err := e.transact(t, addr, e.owner, v.PackSetUpdater(evm.Address(e.stranger), false)); err != nil {
			t.Fatal(err)
		}
		if _, err := e.transact(t, addr, e.stranger, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 4)); err == nil {
			t.Fatal("a revoked updater set a root")
		}
	})
	t.Run("TransferOwnership", func(t *testing.T) {
		_, err := e.transact(t, addr, e.owner, v.PackTransferOwnership(common.Address{}))
		if _, ok := revertError(t, err).(*evm.VerifierZeroAddress); !ok {
			t.Fatalf("revert %v, want ZeroAddress", err)
		}
		if _, err := e.transact(t, addr, e.owner, v.PackTransferOwnership(evm.Address(e.stranger))); err != nil {
			t.Fatal(err)
		}
		if _, err := e.transact(t, addr, e.owner, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 5)); err == nil {
			t.Fatal("the former owner set a root")
		}
		if _, err := e.transact(t, addr, e.stranger, v.PackSetRoots(t1.Root(), [32]byte{}, [32]byte{}, [32]byte{}, 5)); err != nil {
			t.Fatalf("new owner: %v", err)
		}
	})
}
