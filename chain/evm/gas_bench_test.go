package evm_test

import (
	"fmt"
	"sync"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/common"
	"github.com/ethereum/go-ethereum/core/vm/runtime"
)

var (
	gasTreeOnce     sync.Once
	gasTreeValue    *merkle.StandardTree
	gasTreeFixtures [][2]string
	gasTreePairs    [][2]string

	gasExclusionOnce    sync.Once
	gasExclusionValue   *exclusion
	gasExclusionDropped []string
)

// gasTree is a 1,000,000-leaf sanctions tree: the OFAC fixture addresses
// and synthetic EVM addresses, built once per benchmark run.
func gasTree(b *testing.B) (*merkle.StandardTree, [][2]string) {
	gasTreeOnce.Do(func() {
		_, pairs := fixtureLeaves(b)
		fixtures := len(pairs)
		for i := 0; len(pairs) < 1_000_000; i++ {
			pairs = append(pairs, [2]string{"evm", fmt.Sprintf("0x%040x", uint64(i)*0x9e3779b97f4a7c15+1)})
		}
		gasTreeValue, gasTreeFixtures, gasTreePairs = newTree(b, pairs), pairs[:fixtures], pairs
	})
	return gasTreeValue, gasTreeFixtures
}

// gasExclusion is the exclusion tree of gasTree's list less 100 of its
// synthetic EVM addresses (dropped): those are in the membership tree,
// so addSanctioned takes them, and clear in the exclusion tree, so
// removeSanctioned takes them back; keeping the oracle in step with a
// version that delisted 100 addresses costs both.
func gasExclusion(b *testing.B) (*exclusion, []string) {
	gasTree(b)
	gasExclusionOnce.Do(func() {
		fixtures := len(gasTreeFixtures)
		for _, p := range gasTreePairs[fixtures : fixtures+100] {
			gasExclusionDropped = append(gasExclusionDropped, p[1])
		}
		rest := append(append([][2]string{}, gasTreePairs[:fixtures]...), gasTreePairs[fixtures+100:]...)
		gasExclusionValue = newExclusion(b, rest)
	})
	return gasExclusionValue, gasExclusionDropped
}

// BenchmarkVerifierGas reports the gas of setRoots, of each view function
// for a proof of a 1M-leaf tree (isNotSanctioned: of a 1M-gap exclusion
// tree), of the oracle's isSanctioned(address), and of keeping the oracle
// in step per 100 addresses (addSanctioned with one multiproof,
// removeSanctioned with 100 exclusion proofs), as metrics: "exec-gas" is the EVM
// execution of the call (go-ethereum's core/vm/runtime, Cancun rules, cold
// storage, no 21000 base, no calldata). A verifier's eth_call pays nothing;
// a contract calling the view pays the execution gas plus the call.
// BenchmarkGanacheVerifierGas gives what whole transactions pay.
func BenchmarkVerifierGas(b *testing.B) {
	tr, fixtures := gasTree(b)
	v := evm.NewVerifier()
	metrics := map[string]float64{} // reported after the loop, which resets them
	cfg := &runtime.Config{GasLimit: 30_000_000, Origin: common.HexToAddress("0x0000000000000000000000000000000000c0ffee")}
	code, addr, _, err := runtime.Create(common.FromHex(evm.VerifierMetaData.Bin), cfg)
	if err != nil || len(code) == 0 {
		b.Fatalf("deploy: %v", err)
	}
	exec := func(name string, data []byte, wantTrue bool) {
		b.Helper()
		ret, left, err := runtime.Call(addr, data, cfg)
		if err != nil {
			b.Fatalf("%s: %v", name, err)
		}
		if wantTrue && (len(ret) != 32 || ret[31] != 1) {
			b.Fatalf("%s returned %x, want true", name, ret)
		}
		metrics[name+"-exec-gas"] = float64(cfg.GasLimit - left)
	}
	x, dropped := gasExclusion(b)
	exec("setRoots-first", v.PackSetRoots([32]byte{1}, [32]byte{2}, [32]byte{3}, [32]byte{4}, 1), false)
	exec("setRoots", v.PackSetRoots(tr.Root(), [32]byte{3}, x.Root(), [32]byte{5}, 2), false)

	account, p, multi := gasProofs(b, tr, fixtures)
	metrics["proof-len"] = float64(len(p))
	exec("verify", v.PackVerify(p, merkle.LeafHashStrings2("evm", account)), true)
	exec("isListed", v.PackIsListed("evm", account, p), true)
	exec("isSanctioned", v.PackIsSanctioned(common.HexToAddress(account), p), true)
	for n, mp := range multi {
		exec(fmt.Sprintf("multiProofVerify%d", n), v.PackMultiProofVerify(hashes(mp.Proof), mp.ProofFlags, hashes(mp.Leaves)), true)
	}

	// The oracle: add 100, read, remove them.
	as, mp, flags := addProof(b, tr, dropped)
	add := v.PackAddSanctioned(as, mp, flags)
	exec("addSanctioned100", add, false)
	metrics["addSanctioned100-calldata-bytes"] = float64(len(add))
	exec("isSanctioned(address)-listed", v.PackIsSanctioned0(as[0]), true)
	clear := addrPlus(dropped[0], 1)
	exec("isSanctioned(address)-unlisted", v.PackIsSanctioned0(common.HexToAddress(clear)), false)
	g := x.gapOf("evm", clear)
	lo, hi := bounds(g)
	xp := x.proof(b, "evm", g)
	metrics["exclusion-proof-len"] = float64(len(xp))
	exec("isNotSanctioned", v.PackIsNotSanctioned(common.HexToAddress(clear), lo, hi, xp), true)
	exec("isNotListed", v.PackIsNotListed("evm", clear, g[0], g[1], xp), true)
	ras, lows, highs, proofs := removeProof(b, x, dropped)
	remove := v.PackRemoveSanctioned(ras, lows, highs, proofs)
	exec("removeSanctioned100", remove, false)
	metrics["removeSanctioned100-calldata-bytes"] = float64(len(remove))

	data := v.PackIsSanctioned(common.HexToAddress(account), p)
	for b.Loop() {
		if _, _, err := runtime.Call(addr, data, cfg); err != nil {
			b.Fatal(err)
		}
	}
	for k, m := range metrics {
		b.ReportMetric(m, k)
	}
}

// gasProofs returns an EVM fixture account of the tree with its proof, and
// multiproofs of the first 2 and 10 fixture addresses.
func gasProofs(b *testing.B, tr *merkle.StandardTree, fixtures [][2]string) (string, [][32]byte, map[int]merkle.MultiProof) {
	var account string
	for _, p := range fixtures {
		if p[0] == "evm" {
			account = p[1]
			break
		}
	}
	proof, err := tr.ProofOf([]any{"evm", account})
	if err != nil {
		b.Fatal(err)
	}
	multi := map[int]merkle.MultiProof{}
	for _, n := range []int{2, 10} {
		idx := make([]int, n)
		for i := range idx {
			if idx[i], err = tr.LeafLookup([]any{fixtures[i][0], fixtures[i][1]}); err != nil {
				b.Fatal(err)
			}
		}
		if multi[n], err = tr.MultiProof(idx); err != nil {
			b.Fatal(err)
		}
	}
	return account, hashes(proof), multi
}
