package billing

import (
	"math"
	"strings"
	"testing"

	"github.com/cairn-dev/cairn"
	"github.com/cairn-dev/cairn/chain"
)

func TestCreditsFor(t *testing.T) {
	for _, tc := range []struct {
		octas  uint64
		perAPT int64
		want   int64
		apt    string
	}{
		{100_000_000, 1000, 1000, "1"},
		{50_000_000, 1000, 500, "0.5"},
		{99_999, 1000, 0, "0.00099999"}, // below one credit: rounded down
		{100_000, 1000, 1, "0.001"},
		{123_456_789, 7, 8, "1.23456789"},
		{math.MaxUint64, 1000, 1e12, "184467440737.09551615"}, // no overflow: capped at the ledger's largest movement
	} {
		if got := creditsFor(tc.octas, tc.perAPT); got != tc.want {
			t.Errorf("creditsFor(%d, %d) = %d, want %d", tc.octas, tc.perAPT, got, tc.want)
		}
		if got := aptText(tc.octas); got != tc.apt {
			t.Errorf("aptText(%d) = %q, want %q", tc.octas, got, tc.apt)
		}
	}
}

// TestDepositOf: the transaction hash and the octas of a deposit's ledger
// entry are read back from what Credit writes; other entries are not
// deposits.
func TestDepositOf(t *testing.T) {
	hash := "0x" + strings.Repeat("ab", 32)
	for _, octas := range []uint64{1, 150_000_000, math.MaxUint64} {
		e := &cairn.LedgerEntry{Kind: cairn.LedgerDeposit, UniqueKey: depositKeyPrefix + hash,
			Reason: depositReason(chain.Deposit{Amount: octas, Version: 9, Sender: "0x1"}, hash)}
		if h, n, ok := DepositOf(e); !ok || h != hash || n != octas {
			t.Fatalf("DepositOf(%q) = %s %d %v", e.Reason, h, n, ok)
		}
	}
	if _, _, ok := DepositOf(&cairn.LedgerEntry{Kind: cairn.LedgerCharge, Reason: "x"}); ok {
		t.Fatal("a charge read as a deposit")
	}
}
