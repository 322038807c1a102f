package evm_test

import (
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/ethereum/go-ethereum/common"
)

// TestRootsOf: the roots of an anchored list version are read back from
// the contract's events with their block and transaction; a version never
// anchored has none, and another contract's events are not read.
func TestRootsOf(t *testing.T) {
	e := newChain(t)
	addr := e.deploy(t)
	other := e.deploy(t)
	s1, c1, x1, cx1 := [32]byte{1}, [32]byte{2}, [32]byte{3}, [32]byte{4}
	e.setRoots(t, addr, s1, c1, x1, cx1, 1)
	e.setRoots(t, addr, [32]byte{5}, [32]byte{6}, [32]byte{7}, [32]byte{8}, 2)
	e.setRoots(t, other, [32]byte{9}, c1, x1, cx1, 3)
	got, err := evm.RootsOf(ctx, e.client, addr, 1, 0)
	if err != nil {
		t.Fatal(err)
	}
	if len(got) != 1 || got[0].Sanctions != common.Hash(s1) || got[0].Community != common.Hash(c1) || got[0].Exclusion != common.Hash(x1) ||
		got[0].CommunityExclusion != common.Hash(cx1) || got[0].Block == 0 || got[0].TxHash == (common.Hash{}) {
		t.Fatalf("version 1: %+v", got)
	}
	rcpt, err := e.client.TransactionReceipt(ctx, got[0].TxHash)
	if err != nil || rcpt.BlockNumber.Uint64() != got[0].Block {
		t.Fatalf("its transaction %v, %v", rcpt, err)
	}
	for _, v := range []uint64{3, 4} {
		if got, err := evm.RootsOf(ctx, e.client, addr, v, 0); err != nil || len(got) != 0 {
			t.Fatalf("version %d, not anchored at this contract: %+v %v", v, got, err)
		}
	}
	if got, err := evm.RootsOf(ctx, e.client, addr, 1, got[0].Block+1); err != nil || len(got) != 0 {
		t.Fatalf("version 1 read from a later block: %+v %v", got, err)
	}
}
