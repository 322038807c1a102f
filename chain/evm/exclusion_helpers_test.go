package evm_test

import (
	"math/big"
	"slices"
	"testing"

	"github.com/cairn-dev/cairn/chain/evm"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/ethereum/go-ethereum/accounts/abi/bind/v2"
	"github.com/ethereum/go-ethereum/common"
)

// gapEncoding is the leaf encoding of the exclusion trees.
var gapEncoding = []string{"string", "string", "string"}

// maxAddr is 0xff..ff, the high sentinel of isNotSanctioned.
var maxAddr = common.HexToAddress("0xffffffffffffffffffffffffffffffffffffffff")

// exclusion is an exclusion tree built as cairn builds it: per family, the
// gaps ("", a1), (a1, a2), ..., (an, "") between its listed addresses in
// bytewise order; families lists the families with no address (one leaf
// (family, "", "")).
type exclusion struct {
	tree *merkle.StandardTree
	gaps map[string][][2]string // family -> its gaps in order
}

func newExclusion(t testing.TB, pairs [][2]string, emptyFamilies ...string) *exclusion {
	t.Helper()
	byFam := map[string][]string{}
	for _, p := range pairs {
		byFam[p[0]] = append(byFam[p[0]], p[1])
	}
	for _, f := range emptyFamilies {
		byFam[f] = nil
	}
	x := &exclusion{gaps: map[string][][2]string{}}
	var values [][]any
	for fam, addrs := range byFam {
		slices.Sort(addrs) // Go compares strings bytewise
		addrs = slices.Compact(addrs)
		prev := ""
		for _, a := range addrs {
			x.gaps[fam] = append(x.gaps[fam], [2]string{prev, a})
			prev = a
		}
		x.gaps[fam] = append(x.gaps[fam], [2]string{prev, ""})
		for _, g := range x.gaps[fam] {
			values = append(values, []any{fam, g[0], g[1]})
		}
	}
	tr, err := merkle.NewStandardTree(values, gapEncoding, true)
	if err != nil {
		t.Fatal(err)
	}
	x.tree = tr
	return x
}

func (x *exclusion) Root() [32]byte { return x.tree.Root() }

// gapOf returns the gap of family that holds addr (bytewise), whether or
// not addr is listed (then addr is a bound of the returned gap).
func (x *exclusion) gapOf(fam, addr string) [2]string {
	for _, g := range x.gaps[fam] {
		if (g[0] == "" || g[0] <= addr) && (g[1] == "" || addr < g[1]) {
			return g
		}
	}
	panic("no gap for " + fam + " " + addr)
}

// proof returns the proof of the leaf (fam, low, high); it fails the test
// when that is no leaf.
func (x *exclusion) proof(t testing.TB, fam string, g [2]string) [][32]byte {
	t.Helper()
	p, err := x.tree.ProofOf([]any{fam, g[0], g[1]})
	if err != nil {
		t.Fatalf("proof of gap (%s, %q, %q): %v", fam, g[0], g[1], err)
	}
	return hashes(p)
}

// bounds turns a gap of EVM addresses into isNotSanctioned's arguments:
// "" is address(0) below and 0xff..ff above.
func bounds(g [2]string) (low, high common.Address) {
	high = maxAddr
	if g[0] != "" {
		low = common.HexToAddress(g[0])
	}
	if g[1] != "" {
		high = common.HexToAddress(g[1])
	}
	return low, high
}

// addrPlus returns a + d as a canonical EVM address.
func addrPlus(a string, d int64) string {
	n := new(big.Int).SetBytes(common.HexToAddress(a).Bytes())
	n.Add(n, big.NewInt(d))
	return lowerHex(common.BigToAddress(n))
}

func lowerHex(a common.Address) string { return "0x" + common.Bytes2Hex(a.Bytes()) }

func (w views) isNotSanctioned(account, low, high common.Address, p [][32]byte) bool {
	return w.bool(w.v.PackIsNotSanctioned(account, low, high, p), w.v.UnpackIsNotSanctioned)
}

// clear proves account absent with the gap x holds it in.
func (w views) clear(x *exclusion, account string) bool {
	g := x.gapOf("evm", account)
	lo, hi := bounds(g)
	return w.isNotSanctioned(common.HexToAddress(account), lo, hi, x.proof(w.t, "evm", g))
}

func (w views) isNotListed(fam, addr string, g [2]string, p [][32]byte) bool {
	return w.bool(w.v.PackIsNotListed(fam, addr, g[0], g[1], p), w.v.UnpackIsNotListed)
}

func (w views) isNotCommunityListed(fam, addr string, g [2]string, p [][32]byte) bool {
	return w.bool(w.v.PackIsNotCommunityListed(fam, addr, g[0], g[1], p), w.v.UnpackIsNotCommunityListed)
}

func (w views) oracle(addr string) bool {
	return w.bool(w.v.PackIsSanctioned0(common.HexToAddress(addr)), w.v.UnpackIsSanctioned0)
}

// setRoots sets the four roots of version v from the owner key.
func (e *chainEnv) setRoots(t testing.TB, addr common.Address, s, c, x, cx [32]byte, v uint64) {
	t.Helper()
	rcpt, err := e.transact(t, addr, e.owner, evm.NewVerifier().PackSetRoots(s, c, x, cx, v))
	if err != nil || rcpt.Status != 1 {
		t.Fatalf("setRoots of version %d: %v", v, err)
	}
}

// call reads a view with bind.Call, failing the test on an error.
func call[T any](t testing.TB, c *bind.BoundContract, data []byte, unpack func([]byte) (T, error)) T {
	t.Helper()
	out, err := bind.Call(c, nil, data, unpack)
	if err != nil {
		t.Fatal(err)
	}
	return out
}
