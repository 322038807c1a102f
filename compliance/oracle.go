package compliance

import (
	"encoding/hex"
	"errors"
	"iter"

	"github.com/cairn-dev/cairn/chain"
	"github.com/cairn-dev/cairn/merkle"
	"github.com/cairn-dev/cairn/screening"
)

// OracleLists gives the contract's oracle (chain/evm) the held list
// version whose roots the chain holds: the current index, or the one the
// holder keeps while a newer version is being anchored.
func OracleLists(h *screening.Holder) chain.OracleLists { return oracleLists{h} }

type oracleLists struct{ h *screening.Holder }

func (o oracleLists) OracleList(r chain.Roots) (chain.OracleList, bool) {
	for _, v := range o.h.Held() {
		ix, ok := o.h.Version(v)
		if ok && ix.Root() == r.Sanctions && ix.CommunityRoot() == r.Community &&
			ix.ExclusionRoot() == r.Exclusion && ix.CommunityExclusionRoot() == r.CommunityExclusion {
			return oracleList{ix}, true
		}
	}
	return nil, false
}

// oracleList is chain.OracleList over an index: its sanctions tree's EVM
// addresses and proofs against it.
type oracleList struct{ ix *screening.Index }

func (l oracleList) Version() uint64 { return l.ix.Version }

func (l oracleList) Sanctioned() iter.Seq[[20]byte] {
	return l.ix.EVMAddresses(screening.ClassSanctions)
}

func (l oracleList) IsSanctioned(a [20]byte) bool { return l.ix.HasEVM(screening.ClassSanctions, a) }

func (l oracleList) AddProof(accounts [][20]byte) ([][20]byte, [][32]byte, []bool, error) {
	pairs := make([][2]string, len(accounts))
	for i, a := range accounts {
		pairs[i] = [2]string{string(screening.EVM), evmHex(a)}
	}
	mp, values, err := l.ix.MultiProofIn(screening.ClassSanctions, pairs)
	if err != nil {
		return nil, nil, nil, err
	}
	if len(values) != len(accounts) {
		return nil, nil, nil, errors.New("compliance: an address to add is not in the sanctions tree")
	}
	ordered := make([][20]byte, len(values))
	for i, v := range values {
		if ordered[i], err = evmBytes(v[1]); err != nil {
			return nil, nil, nil, err
		}
	}
	return ordered, hashes32(mp.Proof), mp.ProofFlags, nil
}

func (l oracleList) RemoveProof(a [20]byte) (low, high [20]byte, proof [][32]byte, err error) {
	g, ok := l.ix.ExclusionProof(screening.ClassSanctions, screening.EVM, evmHex(a))
	if !ok {
		return low, high, nil, errors.New("compliance: an address to remove is in the sanctions tree")
	}
	for i := range high {
		high[i] = 0xff // an open end above
	}
	if g.Low != "" {
		if low, err = evmBytes(g.Low); err != nil {
			return low, high, nil, err
		}
	}
	if g.High != "" {
		if high, err = evmBytes(g.High); err != nil {
			return low, high, nil, err
		}
	}
	return low, high, hashes32(g.Proof), nil
}

func evmHex(a [20]byte) string { return "0x" + hex.EncodeToString(a[:]) }

func evmBytes(s string) (a [20]byte, err error) {
	if len(s) != 42 {
		return a, errors.New("compliance: not a canonical EVM address: " + s)
	}
	_, err = hex.Decode(a[:], []byte(s[2:]))
	return a, err
}

func hashes32(hs []merkle.Hash) [][32]byte {
	out := make([][32]byte, len(hs))
	for i, h := range hs {
		out[i] = h
	}
	return out
}
