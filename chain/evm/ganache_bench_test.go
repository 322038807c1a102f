package evm_test

import (
	"context"
	"crypto/rand"
	"fmt"
	"log/slog"
	"testing"
	"time"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/chain/evm/evmtest"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/store/pebble"
	"github.com/ethereum/go-ethereum"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/types"
)

// BenchmarkGanacheTimeToSynced measures, on the local ganache node
// (instant mining, 1 confirmation), the time from Submit of a new list
// version (what Pipeline.OnVersion does) to the Anchorer reporting it
// synced (ns/op), and to its transaction being broadcast
// (ms-to-submitted/op), with the Anchorer's Run loop at two poll intervals:
// the default 4 s and 250 ms. Submit wakes the loop, which signs and sends
// at once; the receipt is looked up a second after the broadcast (at most a
// poll interval), or at an earlier tick.
func BenchmarkGanacheTimeToSynced(b *testing.B) {
	c := ganache(b)
	key, _ := evmtest.Key(b, evmtest.KeyBenchmark)
	addr, id := deploy(b, c, key)
	for _, poll := range []time.Duration{4 * time.Second, 250 * time.Millisecond} {
		b.Run("poll="+poll.String(), func(b *testing.B) {
			db, err := pebble.Open(b.TempDir(), pebble.Options{})
			if err != nil {
				b.Fatal(err)
			}
			defer db.Close()
			a, err := evm.NewAnchorer(ctx, evm.Options{Backend: c, Key: key, ChainID: id.Uint64(), Contract: addr, Confirmations: 1,
				Store: db, PollInterval: poll, Logger: slog.New(slog.DiscardHandler)})
			if err != nil {
				b.Fatal(err)
			}
			runCtx, stop := context.WithCancel(ctx)
			done := make(chan struct{})
			go func() { defer close(done); a.Run(runCtx) }()
			defer func() { stop(); <-done }()
			// Each sub-benchmark has a fresh store; the contract keeps its
			// version, so versions continue from it.
			v := evm.NewVerifier()
			version, err := bind.Call(v.Instance(c, addr), nil, v.PackListVersion(), v.UnpackListVersion)
			if err != nil {
				b.Fatal(err)
			}
			var toSubmitted time.Duration
			for b.Loop() {
				version++
				var root [32]byte
				rand.Read(root[:])
				start := time.Now()
				if err := a.Submit(ctx, version, chain.Roots{Sanctions: root, Community: root}); err != nil {
					b.Fatal(err)
				}
				var sent time.Duration
				for st := status(b, a); st.ListVersion != version || st.Status != chain.AnchorSynced; st = status(b, a) {
					if sent == 0 && st.ListVersion == version && st.Status == chain.AnchorSubmitted {
						sent = time.Since(start)
					}
					if time.Since(start) > time.Minute {
						b.Fatalf("not synced after a minute: %+v", st)
					}
					time.Sleep(time.Millisecond)
				}
				toSubmitted += sent
			}
			b.ReportMetric(float64(toSubmitted.Milliseconds())/float64(b.N), "ms-to-submitted/op")
		})
	}
}

// BenchmarkGanacheVerifierGas reports, on the local ganache node (shanghai
// rules), the gas whole transactions pay: setRoots' receipts (the first,
// which fills empty storage, and a later one), the receipts of keeping the
// oracle in step per 100 addresses (addSanctioned, removeSanctioned) and
// eth_estimateGas of a transaction calling each view function with a proof
// of the 1M-leaf tree (isNotSanctioned: of the 1M-gap exclusion tree).
func BenchmarkGanacheVerifierGas(b *testing.B) {
	c := ganache(b)
	key, _ := evmtest.Key(b, evmtest.KeyBenchmark)
	addr, id := deploy(b, c, key)
	tr, fixtures := gasTree(b)
	x, dropped := gasExclusion(b)
	v := evm.NewVerifier()
	bound := v.Instance(c, addr)
	metrics := map[string]float64{}
	send := func(name string, data []byte) {
		tx, err := bind.Transact(bound, bind.NewKeyedTransactor(key, id), data)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		rcpt, err := bind.WaitMined(ctx, c, tx.Hash())
		if err != nil || rcpt.Status != types.ReceiptStatusSuccessful {
			b.Fatalf("%s: %v", name, err)
		}
		metrics[name+"-tx-gas"] = float64(rcpt.GasUsed)
	}
	send("setRoots-first", v.PackSetRoots([32]byte{1}, [32]byte{3}, [32]byte{4}, [32]byte{5}, 1))
	send("setRoots", v.PackSetRoots(tr.Root(), [32]byte{3}, x.Root(), [32]byte{5}, 2))
	as, mp, flags := addProof(b, tr, dropped)
	send("addSanctioned100", v.PackAddSanctioned(as, mp, flags))
	send("removeSanctioned100", v.PackRemoveSanctioned(removeProof(b, x, dropped)))
	account, p, multi := gasProofs(b, tr, fixtures)
	clear := addrPlus(dropped[0], 1)
	g := x.gapOf("evm", clear)
	lo, hi := bounds(g)
	calls := map[string][]byte{
		"verify":                v.PackVerify(p, merkle.LeafHashStrings2("evm", account)),
		"isListed":              v.PackIsListed("evm", account, p),
		"isSanctioned":          v.PackIsSanctioned(common.HexToAddress(account), p),
		"isSanctioned(address)": v.PackIsSanctioned0(common.HexToAddress(account)),
		"isNotSanctioned":       v.PackIsNotSanctioned(common.HexToAddress(clear), lo, hi, x.proof(b, "evm", g)),
	}
	for n, mp := range multi {
		calls[fmt.Sprintf("multiProofVerify%d", n)] = v.PackMultiProofVerify(hashes(mp.Proof), mp.ProofFlags, hashes(mp.Leaves))
	}
	from := evm.Address(key)
	for b.Loop() {
		for name, data := range calls {
			gas, err := c.EstimateGas(ctx, ethereum.CallMsg{From: from, To: &addr, Data: data})
			if err != nil {
				b.Fatalf("%s: %v", name, err)
			}
			metrics[name+"-tx-gas"] = float64(gas)
		}
	}
	for k, m := range metrics {
		b.ReportMetric(m, k)
	}
}
