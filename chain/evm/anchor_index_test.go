package evm_test

import (
	"testing"

	"github.com/cairn-dev/cairn/chain"
)

// TestAnchorReceiptNotIndexedYet: the transaction is mined (the account's
// nonce moved past it and the contract holds the roots) but the node has
// not indexed its receipt yet. That is no replacement: the version is not
// signed again, and it is synced by its own transaction once the receipt
// shows.
func TestAnchorReceiptNotIndexedYet(t *testing.T) {
	e := newAnchorEnv(t)
	a := e.anchorer(t, e.updater, 1)
	submit(t, a, 1, chain.Roots{Sanctions: rootA, Community: rootB})
	step(t, a)
	sent := wantStatus(t, a, 1, chain.AnchorSubmitted)
	e.backend.mu.Lock()
	e.backend.unindexed = true
	e.backend.mu.Unlock()
	e.sim.Commit()
	for range 3 {
		step(t, a)
		if st := wantStatus(t, a, 1, chain.AnchorSubmitted); st.TxHash != sent.TxHash {
			t.Fatalf("the version was signed again (%s, first %s) while its receipt was not indexed", st.TxHash, sent.TxHash)
		}
	}
	if n := e.nonce(t, e.updater); n != 1 {
		t.Fatalf("updater nonce %d: a second transaction was sent", n)
	}
	e.backend.mu.Lock()
	e.backend.unindexed = false
	e.backend.mu.Unlock()
	step(t, a)
	if st := wantStatus(t, a, 1, chain.AnchorSynced); st.TxHash != sent.TxHash || st.BlockNumber == 0 {
		t.Fatalf("synced by %q in block %d, want %s", st.TxHash, st.BlockNumber, sent.TxHash)
	}
}
