package evm_test

import (
	"strings"
	"testing"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
)

// TestAnchorContractAhead: the contract is read before signing. A version
// it already holds with the same roots is synced without a transaction; a
// contract at a newer version is refused as another writer's, with nothing
// sent.
func TestAnchorContractAhead(t *testing.T) {
	e := newAnchorEnv(t)
	v := evm.NewVerifier()
	if _, err := e.transact(t, e.contract, e.owner, v.PackSetRoots(rootA, rootB, [32]byte{}, [32]byte{}, 5)); err != nil {
		t.Fatal(err)
	}
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 5, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	if st := wantStatus(t, a, 5, chain.AnchorSynced); st.TxHash != "" || len(e.backend.sent) != 0 {
		t.Fatalf("a version the contract holds: %+v, %d sent", st, len(e.backend.sent))
	}

	if _, err := e.transact(t, e.contract, e.owner, v.PackSetRoots(rootC, rootB, [32]byte{}, [32]byte{}, 9)); err != nil {
		t.Fatal(err)
	}
	submit(t, a, 7, chain.Roots{Sanctions: rootB, Community: rootB})
	step(t, a)
	st := wantStatus(t, a, 7, chain.AnchorFailed)
	if !strings.Contains(st.Error, "holds list version 9") || len(e.backend.sent) != 0 || e.nonce(t, e.updater) != 0 {
		t.Fatalf("a contract ahead: %+v", st)
	}
}

// TestAnchorNewContract: pointed at another contract, the same store
// anchors the current version there; each contract's records are its own.
func TestAnchorNewContract(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.owner, 1)
	submit(t, a, 3, chain.Roots{Sanctions: rootA, Community: rootB})
	e.stepMined(t, a)
	wantStatus(t, a, 3, chain.AnchorSynced)

	first := e.contract
	e.contract = e.deploy(t)
	b := e.anchorer(t, e.owner, 1)
	wantStatus(t, b, 0, chain.AnchorPending)
	submit(t, b, 3, chain.Roots{Sanctions: rootA, Community: rootB}) // what Main does at start
	e.stepMined(t, b)
	if st := wantStatus(t, b, 3, chain.AnchorSynced); st.Contract() != strings.ToLower(e.contract.Hex()) || e.onChain(t).ListVersion != 3 {
		t.Fatalf("new contract: %+v", st)
	}
	if st := wantStatus(t, a, 3, chain.AnchorSynced); st.Contract() != strings.ToLower(first.Hex()) {
		t.Fatalf("old contract's record: %+v", st)
	}
}
